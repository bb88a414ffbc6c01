import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Reading and writing format v1")
struct ModelRoundTripTests {
    static func fixtureNames(_ folder: String) -> [String] {
        Repository.jsonFiles(in: Repository.fixtures.appendingPathComponent(folder)).map(\.lastPathComponent)
    }

    @Test("Every answer format has a fixture", arguments: AnswerFormat.typeNames)
    func everyFormatHasFixture(_ type: String) throws {
        let url = Repository.fixtures.appendingPathComponent("formats/\(type).json")
        let survey = try SurveyLoader.load(Data(contentsOf: url))
        #expect(survey.warnings.isEmpty, "\(survey.warnings)")
        guard case .question(let content) = survey.task.steps[0].kind else {
            Issue.record("the first step is not a question")
            return
        }
        #expect(content.answerFormat.typeName == type)
        // The kind, which code reading the file's JSON switches over, is the same format.
        #expect(content.answerFormat.kind.typeName == type)
        #expect(AnswerFormat.Kind(typeName: type) == content.answerFormat.kind)
    }

    @Test("A type that names no format has no kind")
    func unknownTypeHasNoKind() {
        #expect(AnswerFormat.Kind(typeName: "colour") == nil)
        #expect(AnswerFormat.Kind(typeName: "Age") == nil)
    }

    @Test("Every step type has a fixture", arguments: StepKind.typeNames)
    func everyStepTypeHasFixture(_ type: String) throws {
        let url = Repository.fixtures.appendingPathComponent("steps/\(type).json")
        let survey = try SurveyLoader.load(Data(contentsOf: url))
        #expect(survey.warnings.isEmpty, "\(survey.warnings)")
        #expect(survey.task.steps.last?.kind.typeName == type)
    }

    static let allFiles: [String] = fixtureNames("formats").map { "formats/\($0)" } + fixtureNames("steps").map { "steps/\($0)" }
        + Repository.exampleNames().map { "../../../Examples/\($0)" }

    @Test("Decode, encode, decode gives the same value", arguments: allFiles)
    func roundTrip(_ file: String) throws {
        let data = try Data(contentsOf: Repository.fixtures.appendingPathComponent(file))
        let first = try SurveyLoader.load(data).task
        let written = JSONWriter.data(first.json)
        let second = try SurveyLoader.load(written).task
        #expect(first == second)
        // Writing again gives the same bytes: the encoding is canonical.
        #expect(JSONWriter.data(second.json) == written)
    }

    @Test("Encoding keeps every key the author wrote", arguments: allFiles)
    func encodingKeepsEveryKey(_ file: String) throws {
        let data = try Data(contentsOf: Repository.fixtures.appendingPathComponent(file))
        var original = try JSONParser.parse(data)
        // A FHIR Questionnaire among the examples is written by the survey file it imports as.
        if QuestionnaireImport.isQuestionnaire(original) {
            original = try #require(QuestionnaireImport.survey(from: original, fallbackIdentifier: "example").survey)
        }
        let task = try SurveyLoader.load(data).task
        #expect(Self.normalized(task.json) == Self.normalized(original))
    }

    @Test("SurveyTask is Codable through Foundation's coders")
    func codableThroughFoundation() throws {
        let data = try Data(contentsOf: Repository.examples.appendingPathComponent("fever-triage.json"))
        let decoded = try JSONDecoder().decode(SurveyTask.self, from: data)
        let again = try JSONDecoder().decode(SurveyTask.self, from: JSONEncoder().encode(decoded))
        #expect(decoded == again)
        #expect(decoded == (try SurveyLoader.load(data).task))
    }

    @Test("Foundation's decoder reports the checker's errors")
    func codableReportsErrors() {
        let json = #"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10, "step": 3}}]}"#
        #expect {
            _ = try JSONDecoder().decode(SurveyTask.self, from: Data(json.utf8))
        } throws: { error in
            String(describing: error).contains("$.steps[0].answerFormat.step")
        }
    }

    /// Object key order does not matter for meaning.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.entries.sorted { $0.key < $1.key }.map { ($0.key, normalized($0.value)) }))
        case .array(let list):
            return .array(list.map(normalized))
        default:
            return value
        }
    }
}

@Suite("The JSON reader and writer")
struct JSONTests {
    @Test("Text round-trips through the writer", arguments: [
        #"{"a": [1, 2.5, -3e2, true, false, null], "b": "\u00e9\n\"q\"", "c": {}}"#,
        #"["\ud83d\ude00", "tab\tend", 0.1, 123456789012]"#,
    ])
    func roundTrip(_ text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(JSONWriter.string(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.string(value, pretty: false)) == value)
    }

    @Test("Malformed documents are refused", arguments: ["{", "[1,]", #"{"a" 1}"#, "01", "1.", #""\x""#, "tru", "[1] 2", "\"a\u{01}\"", #""\ud800""#])
    func malformedIsRefused(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("Keys keep their order")
    func keysKeepOrder() throws {
        guard case .object(let object) = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test("Deep nesting is refused rather than crashing")
    func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("Paths quote keys that are not plain names")
    func pathsQuoteKeys() {
        let path = JSONPath.root / "navigationRules" / "a.b" / "rules" / 0 / "if"
        #expect(path.description == #"$.navigationRules["a.b"].rules[0].if"#)
        #expect((JSONPath.root / "a/b~c" / 2).pointer == "/a~1b~0c/2")
    }
}
