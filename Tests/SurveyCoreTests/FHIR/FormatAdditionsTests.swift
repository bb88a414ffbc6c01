import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The keys format v1 gains for FHIR questionnaires (docs/fhir.md), read, written back, checked
/// and run by the navigator.
@Suite("Format additions for FHIR")
struct FormatAdditionsTests {
    static let survey = """
        {"identifier": "intake", "title": "Intake",
         "variables": [{"name": "two", "expression": "1 + 1"}],
         "fhir": {"url": "http://example.org/Questionnaire/intake", "version": "3"},
         "steps": [
          {"identifier": "age", "type": "question", "optional": false, "answerFormat": {"type": "numeric", "style": "integer"},
           "initial": 40, "fhir": {"linkId": "1", "code": [{"system": "http://loinc.org", "code": "30525-0"}]}},
          {"identifier": "about", "type": "form", "fhir": {"linkId": "2"}, "items": [
            {"identifier": "smoker", "text": "Do you smoke?", "answerFormat": {"type": "boolean"}, "fhir": {"linkId": "2.1"}},
            {"note": "Tell us how much.", "visibleIf": {"result": "about.smoker", "compare": "=", "value": true}},
            {"sectionTitle": "Amount", "fhir": {"linkId": "2.2"}},
            {"identifier": "perDay", "text": "Per day", "answerFormat": {"type": "numeric", "style": "integer"},
             "visibleIf": {"result": "about.smoker", "answered": true}, "fhir": {"linkId": "2.2.1", "within": ["2.2"]}},
            {"identifier": "site", "text": "Site", "answerFormat": {"type": "text", "minimumLength": 3}, "readOnly": true,
             "initial": "Clinic A"},
            {"identifier": "code", "text": "Code", "answerFormat": {"type": "text"}, "hidden": true, "initial": "X1"},
            {"identifier": "colour", "text": "Colour", "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [
              {"text": "Red", "value": "R", "fhir": {"system": "http://example.org/colours", "code": "R", "display": "Red"}},
              {"text": "Blue", "value": "B"}]}, "initial": ["B"]}]},
          {"identifier": "done", "type": "completion", "title": "Thank you"}],
         "skipRules": {"about": {"result": "age", "compare": "<", "value": 18}}}
        """

    @Test("Every added key is read and written back the same")
    func roundTrip() throws {
        let task = try loadSurvey(Self.survey)
        #expect(task.variables == [NamedExpression(name: "two", expression: "1 + 1")])
        #expect(task.fhir?["version"] == .string("3"))
        guard case .question(let content) = task.steps[0].kind else { Issue.record("not a question"); return }
        #expect(content.behaviour.initial == .number(40))
        #expect(task.steps[0].fhir?["linkId"] == .string("1"))
        guard case .form(let form) = task.steps[1].kind else { Issue.record("not a form"); return }
        guard case .note(let note) = form.items[1] else { Issue.record("not a note"); return }
        #expect(note.visibleIf == .compare(ResultSelector(step: "about", item: "smoker"), .equal, .bool(true)))
        guard case .section(let header) = form.items[2] else { Issue.record("not a section"); return }
        #expect(header.fhir?["linkId"] == .string("2.2"))
        guard case .question(let site) = form.items[4], case .text(let text) = site.answerFormat else { Issue.record("not text"); return }
        #expect(site.behaviour.readOnly == true && text.minimumLength == 3)
        let again = try SurveyLoader.load(JSONWriter.data(task.json)).task
        #expect(again == task)
        #expect(again.json == task.json)
    }

    @Test("A misfit compare, a bad initial, a bad variable name and an unknown operator are refused with their paths")
    func refused() {
        let cases: [(String, String)] = [
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},"#
                + #"{"identifier": "b", "type": "instruction", "title": "b"}], "skipRules": {"b": {"result": "a", "compare": ">", "value": true}}}"#,
             "$.skipRules.b.compare"),
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},"#
                + #"{"identifier": "b", "type": "instruction", "title": "b"}], "skipRules": {"b": {"result": "a", "compare": "=", "value": 3}}}"#,
             "$.skipRules.b.value"),
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}, "initial": "yes"}]}"#,
             "$.steps[0].initial"),
            (#"{"identifier": "t", "variables": [{"name": "2x", "expression": "1"}], "steps": [{"identifier": "a", "type": "instruction", "title": "a"}]}"#,
             "$.variables[0].name"),
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},"#
                + #"{"identifier": "b", "type": "instruction", "title": "b"}], "skipRules": {"b": {"result": "a", "compare": "~", "value": true}}}"#,
             "$.skipRules.b.compare"),
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "text", "minimumLength": 9, "maximumLength": 4}}]}"#,
             "$.steps[0].answerFormat.minimumLength"),
            (#"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},"#
                + #"{"identifier": "b", "type": "instruction", "title": "b"}], "skipRules": {"b": {"result": "a", "equals": true, "value": false}}}"#,
             "$.skipRules.b.value"),
            (#"{"identifier": "t", "variables": [{"name": "café", "expression": "1"}], "steps": [{"identifier": "a", "type": "instruction", "title": "a"}]}"#,
             "$.variables[0].name"),
        ]
        for (json, path) in cases {
            let (task, diagnostics) = SurveyLoader.diagnose(Data(json.utf8))
            #expect(task == nil, "\(path)")
            #expect(diagnostics.filter(\.isError).map(\.path.description).contains(path), "\(diagnostics)")
        }
    }

    @Test("Notes show on their condition; read-only, hidden and initial answers are recorded; a skip rule compares")
    func running() throws {
        let task = try loadSurvey(Self.survey)
        var walker = Walker(task)
        let age = try #require(walker.run.current)
        let step = try #require(task.step("age"))
        #expect(walker.navigator.presetAnswer(for: step.questions[0], of: step, visit: age, in: walker.run, index: 0) == .numeric(40))
        walker.next(["age": "17"])
        #expect(walker.pathIdentifiers == ["age", "done"], "under 18 skips the form")

        walker = Walker(task)
        walker.next(["age": "40"])
        #expect(walker.currentIdentifier == "about")
        let form = try #require(task.step("about"))
        // The note and the count depend on the first item, so they start the second page.
        #expect(walker.navigator.pages(of: form).count == 2)
        walker.next(["smoker": "true"])
        let visit = try #require(walker.run.current)
        #expect(walker.navigator.hiddenNotes(of: form, page: 1, visit: visit, in: walker.run, index: 1).isEmpty)
        let shown = walker.navigator.visibleItems(of: form, page: 1, visit: visit, in: walker.run, index: 1)
        #expect(!shown.contains { if case .question(let question) = $0 { return question.identifier == "code" } else { return false } },
                "a hidden question is not drawn")
        #expect(walker.next(["perDay": "10", "site": "typed over", "colour": "R"]).isEmpty)
        let results = try #require(walker.result.stepResult("about")).results
        #expect(results.first { $0.identifier == "site" }?.answer == .text("Clinic A"), "read-only keeps its initial value")
        #expect(results.first { $0.identifier == "code" }?.answer == .text("X1"), "hidden records its initial value")
        #expect(results.first { $0.identifier == "perDay" }?.answer == .numeric(10))

        walker = Walker(task)
        walker.next(["age": "40"])
        walker.next(["smoker": "false"])
        let second = try #require(walker.run.current)
        #expect(walker.navigator.hiddenNotes(of: form, page: 1, visit: second, in: walker.run, index: 1) == [1])
    }

    @Test("minimumLength refuses a shorter answer")
    func minimumLength() {
        let format = AnswerFormat.text({ var text = TextFormat(); text.minimumLength = 3; return text }())
        let context = AnswerContext(language: "en", now: referenceNow, timeZone: utc)
        if case .invalid(let issues) = AnswerParser.parse(format, name: "q", fields: FormFields(["q": ["ab"]]), context: context) {
            #expect(issues.map(\.code) == [.tooShort])
        } else {
            Issue.record("two characters were accepted")
        }
        if case .answer(let answer) = AnswerParser.parse(format, name: "q", fields: FormFields(["q": ["abc"]]), context: context) {
            #expect(answer == .text("abc"))
        } else {
            Issue.record("three characters were refused")
        }
    }
}
