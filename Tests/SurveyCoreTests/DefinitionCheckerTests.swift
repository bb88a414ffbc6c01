import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// One survey that must be refused (or warned about) with the listed JSON paths.
struct CheckerCase: CustomTestStringConvertible, Sendable {
    let name: String
    let survey: JSONValue
    let errors: [String]
    let warnings: [String]
    var testDescription: String { name }

    static func load(_ file: String) -> [CheckerCase] {
        let url = Repository.fixtures.appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url), case .array(let entries)? = try? JSONParser.parse(data) else { return [] }
        return entries.compactMap { entry in
            guard case .object(let object) = entry, case .string(let name)? = object["name"], let survey = object["survey"] else { return nil }
            func strings(_ key: String) -> [String] {
                guard case .array(let list)? = object[key] else { return [] }
                return list.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
            }
            return CheckerCase(name: name, survey: survey, errors: strings("errors"), warnings: strings("warnings"))
        }
    }
}

@Suite("The definition checker")
struct DefinitionCheckerTests {
    static let invalid = CheckerCase.load("invalid-surveys.json")
    static let warned = CheckerCase.load("warning-surveys.json")

    @Test("The fixture files hold cases")
    func fixturesArePresent() {
        #expect(Self.invalid.count > 80)
        #expect(Self.warned.count > 10)
    }

    @Test("An invalid survey is refused with the JSON path of each fault", arguments: invalid)
    func invalidSurveyIsRefused(_ fixture: CheckerCase) {
        let (task, diagnostics) = SurveyLoader.diagnose(fixture.survey)
        #expect(task == nil, "\(fixture.name) loaded")
        let paths = Set(diagnostics.filter(\.isError).map(\.path.description))
        for expected in fixture.errors {
            #expect(paths.contains(expected), "\(fixture.name): no error at \(expected); got \(diagnostics.map(\.description))")
        }
        for diagnostic in diagnostics {
            #expect(diagnostic.message.hasSuffix(".") || diagnostic.message.hasSuffix("?"), "\(diagnostic.message) is not a sentence")
        }
    }

    @Test("A questionable survey loads with a warning at the JSON path", arguments: warned)
    func questionableSurveyWarns(_ fixture: CheckerCase) {
        let (task, diagnostics) = SurveyLoader.diagnose(fixture.survey)
        #expect(task != nil, "\(fixture.name) was refused: \(diagnostics.map(\.description))")
        let paths = Set(diagnostics.filter { !$0.isError }.map(\.path.description))
        for expected in fixture.warnings {
            #expect(paths.contains(expected), "\(fixture.name): no warning at \(expected); got \(diagnostics.map(\.description))")
        }
    }

    @Test("Every error is collected at once, not only the first")
    func everyErrorIsCollected() throws {
        let fixture = try #require(Self.invalid.first { $0.name == "every error at once" })
        let errors = SurveyLoader.diagnose(fixture.survey).diagnostics.filter(\.isError)
        #expect(errors.count >= 5)
    }

    @Test("A misspelt key gets a did-you-mean")
    func misspeltKeyGetsSuggestion() {
        let json = #"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "numeric", "maximun": 3}}]}"#
        let messages = SurveyLoader.diagnose(Data(json.utf8)).diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("Did you mean \"maximum\"?") })
    }

    @Test("A syntax error names its line and column")
    func syntaxErrorHasPosition() {
        let json = "{\n  \"identifier\": \"t\",\n  \"steps\": [,]\n}"
        let diagnostics = SurveyLoader.diagnose(Data(json.utf8)).diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("line 3, column 13") == true)
    }

    @Test("A duplicate key is an error, not silently the last one")
    func duplicateKeyIsRefused() {
        let json = #"{"identifier": "t", "identifier": "u", "steps": []}"#
        let diagnostics = SurveyLoader.diagnose(Data(json.utf8)).diagnostics
        #expect(diagnostics.first?.message.contains("appears twice") == true)
    }

    @Test("Every example survey loads with no error and no warning", arguments: Repository.exampleNames())
    func exampleLoadsCleanly(_ name: String) throws {
        let data = try Data(contentsOf: Repository.examples.appendingPathComponent(name))
        let (task, diagnostics) = SurveyLoader.diagnose(data)
        #expect(task != nil)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("A selector whose identifiers hold dots is resolved against the steps")
    func dottedSelectorResolves() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "v1.vitals", "type": "form", "items": [{"identifier": "temp.c", "answerFormat": {"type": "numeric"}}]},
              {"identifier": "end", "type": "instruction"}],
             "skipRules": {"end": {"result": "v1.vitals.temp.c", "minimum": 38}}}
            """)
        guard case .range(let selector, _, _)? = task.skipRule(for: "end") else {
            Issue.record("no range predicate")
            return
        }
        #expect(selector.stepIdentifier == "v1.vitals")
        #expect(selector.itemIdentifier == "temp.c")
    }

    @Test("A selector that could name two questions is refused")
    func ambiguousSelectorIsRefused() {
        let json = """
            {"identifier": "t", "steps": [
              {"identifier": "a.b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "a", "type": "form", "items": [{"identifier": "b", "answerFormat": {"type": "boolean"}}]},
              {"identifier": "c", "type": "instruction"}],
             "skipRules": {"c": {"result": "a.b", "equals": true}}}
            """
        let errors = SurveyLoader.diagnose(Data(json.utf8)).diagnostics.filter(\.isError)
        #expect(errors.map(\.path.description) == ["$.skipRules.c.result"])
    }
}

@Suite("The definition checker after a fault")
struct FollowOnErrorTests {
    @Test("A step that cannot be read is reported once, not again by every rule that names it")
    func noFollowOnErrors() {
        let json = """
            {"identifier": "t", "steps": [
              {"identifier": "f", "type": "form", "items": [
                {"identifier": "a", "answerFormat": {"type": "boolean", "colour": "red"}},
                {"identifier": "b", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10, "step": 3}}]},
              {"identifier": "g", "type": "instruction"}],
             "navigationRules": {"f": {"type": "predicate", "rules": [{"if": {"result": "f.a", "equals": true}, "destination": "g"}]}}}
            """
        let errors = SurveyLoader.diagnose(Data(json.utf8)).diagnostics.filter(\.isError).map(\.path.description)
        #expect(errors == ["$.steps[0].items[0].answerFormat.colour", "$.steps[0].items[1].answerFormat.step"])
    }
}
