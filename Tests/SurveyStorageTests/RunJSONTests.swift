import Foundation
import SurveyCore
import Testing
@testable import SurveyStorage

/// The stores write a run's header and visits with `RunJSON` and read them with
/// `JSONDecoder`; these hold the hand-written bytes to the `Codable` conformances.
@Suite("Stored JSON of runs and visits")
struct RunJSONTests {
    static let start = Date(timeIntervalSince1970: 1_764_100_000.123_456)

    /// One result per kind of answer, with every optional field of a result set somewhere and
    /// strings that need escaping.
    static let answers: [Answer] = [
        .boolean(true), .boolean(false),
        .choices([.string("a \"quoted\" \\ choice"), .number(2), .number(-0.5)]), .choices([]),
        .components([.string("km"), .number(12.25)]),
        .scale(7), .scale(0.1 + 0.2), .numeric(-1e-7), .numeric(123_456_789_012_345_678), .numeric(3),
        .timeOfDay(TimeOfDay(hour: 7, minute: 5)!),
        .date(.day(CalendarDate(year: 2026, month: 2, day: 28)!)), .date(.instant(start)),
        .timeInterval(5400.5),
        .text("line one\nline two\t\u{1}\u{1F}\r é 漢字 🙂 \u{2028}\u{2029}\u{2027}\u{202A} </script>"), .text(""),
        .location(LocationAnswer(userInput: "1 High Street")), .location(LocationAnswer(userInput: "Pole", latitude: -90, longitude: 0.000_001)),
        .ses(10), .dontKnow,
    ]

    static func visit(_ index: Int, answers: [Answer?]) -> StepVisit {
        var visit = StepVisit(stepIdentifier: "step-\(index) \"é\"", startDate: start.addingTimeInterval(Double(index)), page: index % 3,
                              results: answers.enumerated().map { position, answer in
                                  QuestionResult(identifier: "q\(position)", type: QuestionResultType.allCases[position % QuestionResultType.allCases.count],
                                                 startDate: start, endDate: start.addingTimeInterval(1.5), answer: answer,
                                                 unit: position % 2 == 0 ? "cm" : nil, displayUnit: position % 3 == 0 ? "in" : nil,
                                                 timeZone: position % 4 == 0 ? "Europe/Paris" : nil, separator: position % 5 == 0 ? " / " : nil)
                              },
                              isAnswered: index % 2 == 0)
        if index % 2 == 1 { visit.endDate = start.addingTimeInterval(60) }
        if index == 1 {
            // A repeating form's visit: two instances kept, the second being changed.
            visit.instances = [visit.results, []]
            visit.instance = 1
            visit.instanceStart = start.addingTimeInterval(30.25)
        }
        if index == 2 {
            visit.instances = []
            visit.removing = 0
        }
        return visit
    }

    static var visits: [StepVisit] {
        [visit(0, answers: answers), visit(1, answers: [nil]), visit(2, answers: [])]
    }

    static var runs: [TaskRun] {
        var finished = TaskRun(taskIdentifier: "phq-9", taskRunUUID: UUID(), startDate: start, visits: visits, cursor: 2)
        finished.endDate = start.addingTimeInterval(600)
        finished.finishReason = .earlyTermination
        var consented = finished
        consented.finishReason = .completed
        consented.consent = ConsentStatus(copySHA256: String(repeating: "ab", count: 32),
                                          countersignature: .init(name: "Dr \"Ana\" Ruiz", signedAt: start, copySHA256: "cd"),
                                          withdrawnAt: start.addingTimeInterval(86_400))
        var panel = finished
        panel.parameters = ["PROLIFIC_PID": "5f1a\"2b", "STUDY_ID": "s/1 é"]
        panel.choiceOrders = ["pet": [2, 0, 1], "form.item": [1, 0]]
        panel.blockOrders = ["attitudes": [1, 2, 0]]
        panel.arms = ["arm": "walk"]
        return [finished, TaskRun(taskIdentifier: "a \"b\"", taskRunUUID: UUID(), startDate: Date(timeIntervalSince1970: 0)), consented, panel]
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    /// The same JSON document, whatever the spacing, key order or spelling of numbers.
    static func sameDocument(_ left: [UInt8], _ right: Data) throws -> Bool {
        let ours = try JSONSerialization.jsonObject(with: Data(left)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: right) as? NSDictionary
        return ours != nil && ours == theirs
    }

    @Test("Every visit reads back as itself and is the document JSONEncoder writes")
    func visitsRoundTrip() throws {
        for visit in Self.visits {
            let bytes = try RunJSON.visit(visit)
            #expect(try Self.decoder.decode(StepVisit.self, from: Data(bytes)) == visit)
            #expect(try Self.sameDocument(bytes, Self.encoder.encode(visit)), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test("A header reads back as the run without its visits and is the document JSONEncoder writes")
    func headersRoundTrip() throws {
        for run in Self.runs {
            var header = run
            header.visits = []
            let bytes = try RunJSON.header(run)
            #expect(try Self.decoder.decode(TaskRun.self, from: Data(bytes)) == header)
            #expect(try Self.sameDocument(bytes, Self.encoder.encode(header)))
        }
    }

    @Test("Each answer alone is the document JSONEncoder writes for it")
    func answersMatchOneByOne() throws {
        for answer in Self.answers {
            let visit = Self.visit(4, answers: [answer])
            #expect(try Self.sameDocument(RunJSON.visit(visit), Self.encoder.encode(visit)), "\(answer)")
        }
    }

    @Test("Strings are escaped as JSON requires, and U+2028 and U+2029 as well")
    func escaping() throws {
        let visit = StepVisit(stepIdentifier: "\"\\\n\u{0}\u{2028}\u{2029}é", startDate: Date(timeIntervalSince1970: 0))
        let text = String(decoding: try RunJSON.visit(visit), as: UTF8.self)
        #expect(text.hasPrefix(#"{"stepIdentifier":"\"\\\n\u0000\u2028\u2029é","startDate":0,"#))
    }

    @Test("A number JSON cannot hold is refused, as JSONEncoder refuses it")
    func nonFiniteNumbers() {
        for number in [Double.infinity, -.infinity, .nan] {
            let visit = Self.visit(0, answers: [.numeric(number)])
            #expect(throws: RunJSON.NotANumber.self) { try RunJSON.visit(visit) }
            #expect(throws: (any Error).self) { try Self.encoder.encode(visit) }
        }
    }

    /// A property added to a stored type must be written by `RunJSON` too; this fails until it is.
    @Test("The stored types have the properties RunJSON writes, and no others")
    func storedProperties() {
        func names(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let run = Self.runs[0]
        #expect(names(run) == ["taskIdentifier", "taskRunUUID", "startDate", "endDate", "finishReason", "visits", "cursor", "consent",
                               "parameters", "choiceOrders", "blockOrders", "arms"])
        #expect(names(run.visits[0]) == ["stepIdentifier", "startDate", "endDate", "page", "results", "isAnswered", "instances",
                                             "instance", "removing", "instanceStart"])
        #expect(names(run.visits[0].results[0])
            == ["identifier", "type", "startDate", "endDate", "answer", "unit", "displayUnit", "timeZone", "separator"])
        #expect(names(LocationAnswer(userInput: "")) == ["userInput", "latitude", "longitude"])
    }
}
