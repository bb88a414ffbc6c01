import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

@Suite("Every example survey over HTTP")
struct EveryFormatTests {
    static let examples = ["every-format", "wellbeing-check", "fever-triage"]

    /// The scripted answers of an example: step → fields, as a browser posts them.
    static func script(_ name: String) throws -> [(String, JSONValue)] {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("Tests/Fixtures/\(name).answers.json"))
        guard case .object(let object) = try JSONParser.parse(data) else { return [] }
        return object.entries.map { ($0.key, $0.value) }
    }

    static func pairs(_ value: JSONValue?) -> [(String, String)] {
        FormFields(json: value).values.flatMap { name, values in values.map { (name, $0) } }
    }

    @Test("Every control of every step is on its page, and the run's result matches the engine's", arguments: examples)
    func walkExample(_ name: String) async throws {
        let script = Dictionary(try Self.script(name), uniquingKeysWith: { first, _ in first })
        let loaded = try SurveyLoader.load(contentsOf: Repository.root.appendingPathComponent("Examples/\(name).json"))
        // What the engine records for the same answers.
        let navigator = Navigator(task: loaded.task)
        var expected = navigator.start(now: Date())
        while !expected.isFinished, let step = navigator.currentStep(expected) {
            if script[step.identifier] == .string("$skip") {
                expected = navigator.skip(expected, visit: expected.cursor, now: Date())
                continue
            }
            let context = AnswerContext(language: "en", now: Date(), timeZone: navigator.timeZone)
            guard case .accepted(let next) = navigator.answer(expected, visit: expected.cursor, fields: FormFields(json: script[step.identifier]),
                                                              context: context) else {
                Issue.record("the engine refused \(step.identifier)")
                return
            }
            expected = next
        }
        let finished = expected
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/\(name)")
            var steps = 0
            while !browser.lastPage.isEmpty, steps < 100 {
                steps += 1
                guard let visit = Participant.hidden("_visit", in: browser.lastPage), browser.lastPage.contains("name=\"_action\" value=\"next\"")
                else { break }
                let stepID = finished.visits.indices.contains(Int(visit) ?? -1) ? finished.visits[Int(visit)!].stepIdentifier : ""
                let fields = Self.pairs(script[stepID])
                for (field, _) in fields where !field.hasSuffix(".dontKnow") {
                    #expect(browser.lastPage.contains("name=\"\(field)\""), "\(name): no control named \(field) on step \(stepID)")
                }
                let response: TestResponse
                if script[stepID] == .string("$skip") {
                    response = try await browser.submit(name, [("_action", "skip")])
                } else {
                    response = try await browser.submit(name, fields)
                }
                #expect(response.status == .ok, "\(name): step \(stepID) answered \(response.status)")
                if response.status != .ok { break }
            }
            let result = try await browser.get("/surveys/\(name)/result.json")
            #expect(result.status == .ok)
            let served = try JSONParser.parse(String(buffer: result.body))
            let engine = navigator.result(of: finished, now: Date()).json(in: navigator.timeZone)
            #expect(Self.withoutTimes(served) == Self.withoutTimes(engine))
        }
    }

    /// A result without its dates and run identifier, which differ between runs.
    static func withoutTimes(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.entries.filter { !["startDate", "endDate", "taskRunUUID"].contains($0.key) }
                .map { ($0.key, withoutTimes($0.value)) }))
        case .array(let list):
            return .array(list.map(withoutTimes))
        default:
            return value
        }
    }
}
