import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Calculated items and expression conditions as a participant meets them: the PHQ-9 total and
/// a BMI, worked out from the answers saved so far, shown before the page is sent, and recorded.
@Suite("Calculated items")
struct CalculatedItemsTests {
    static func fixture(_ name: String) throws -> SurveyTask {
        let value = try FHIRFixtures.questionnaire(name)
        let (task, diagnostics) = SurveyLoader.diagnose(value, name: "fixture")
        #expect(diagnostics.filter(\.isError).isEmpty, "\(diagnostics)")
        return try #require(task)
    }

    static let items = ["44250-9", "44255-8", "44259-0", "44254-1", "44251-7", "44258-2", "44252-5", "44253-3", "44260-8"]
    static let codes = ["LA6568-5", "LA6569-3", "LA6570-1", "LA6571-9"]

    @Test("The PHQ-9 total is the sum of the ordinal values, shown before its page is sent, and the difficulty question follows it")
    func phq9() throws {
        let task = try Self.fixture("phq-9.json")
        let form = try #require(task.steps.first)
        var walker = Walker(task)
        #expect(walker.navigator.pages(of: form).count == 3, "the questions, the total, the question that depends on it")
        let scores = [1, 2, 0, 3, 1, 1, 0, 2, 1]
        var fields: [String: String] = [:]
        for (item, score) in zip(Self.items, scores) { fields[item] = Self.codes[score] }
        #expect(walker.next(fields).isEmpty)
        let visit = try #require(walker.run.current)
        let total = try #require(form.questions.first { $0.identifier == "44261-6" })
        #expect(walker.navigator.presetAnswer(for: total, of: form, visit: visit, in: walker.run, index: 0) == .numeric(11))
        // A value typed for a calculated item is not read.
        #expect(walker.next(["44261-6": "99"]).isEmpty)
        let afterTotal = try #require(walker.run.current)
        #expect(afterTotal.page == 2)
        #expect(walker.navigator.visibleQuestions(of: form, page: 2, visit: afterTotal, in: walker.run, index: 0).map(\.identifier) == ["69722-7"])
        #expect(walker.next(["69722-7": "LA6573-5"]).isEmpty)
        let results = try #require(walker.result.stepResult(form.identifier)).results
        #expect(results.first { $0.identifier == "44261-6" }?.answer == .numeric(11))
        #expect(results.first { $0.identifier == "69722-7" }?.answer != nil)
    }

    @Test("A total of 0 hides the difficulty question, and a calculated value goes with the answers it came from")
    func phq9None() throws {
        let task = try Self.fixture("phq-9.json")
        let form = try #require(task.steps.first)
        var walker = Walker(task)
        var fields: [String: String] = [:]
        for item in Self.items { fields[item] = Self.codes[0] }
        walker.next(fields)
        walker.next()
        #expect(walker.run.isFinished)
        let results = try #require(walker.result.stepResult(form.identifier)).results
        #expect(results.first { $0.identifier == "44261-6" }?.answer == .numeric(0))
        #expect(!results.contains { $0.identifier == "69722-7" }, "a disabled item leaves no result")
    }

    @Test("A BMI is worked out from height and weight and rounded to one decimal")
    func bmi() throws {
        let task = try Self.fixture("height-weight-bmi.json")
        var walker = Walker(task)
        walker.next([task.steps[0].identifier: "180"])
        walker.next([task.steps[1].identifier: "75"])
        let step = task.steps[2]
        let visit = try #require(walker.run.current)
        #expect(walker.navigator.presetAnswer(for: step.questions[0], of: step, visit: visit, in: walker.run, index: 2) == .numeric(23.1))
        walker.next()
        #expect(walker.result.stepResult(step.identifier)?.results.first?.answer == .numeric(23.1))
    }

    @Test("An expression outside the subset is refused when the survey loads, with its position")
    func refusedAtLoad() {
        let json = #"""
            {"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "numeric"},
              "calculatedExpression": "%resource.item.resolve()"},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "numeric"}, "initialExpression": "%nowhere + 1"}]}
            """#
        let (task, diagnostics) = SurveyLoader.diagnose(Data(json.utf8))
        #expect(task == nil)
        let errors = diagnostics.filter(\.isError)
        let resolve = errors.first { $0.path.description == "$.steps[0].calculatedExpression" }
        #expect(resolve?.message.contains("at character 16") == true, "\(errors)")
        #expect(errors.contains { $0.path.description == "$.steps[1].initialExpression" && $0.message.contains("%nowhere") })
    }

    @Test("An expression predicate shows an item when the response so far makes it true")
    func expressionCondition() throws {
        let task = try loadSurvey(#"""
            {"identifier": "t", "steps": [
              {"identifier": "pain", "type": "question", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10}},
              {"identifier": "where", "type": "question", "answerFormat": {"type": "text"}}],
             "skipRules": {"where": {"not": {"expression": "%resource.item.where(linkId = 'pain').answer.value > 3"}}}}
            """#)
        var high = Walker(task)
        high.next(["pain": "7"])
        #expect(high.currentIdentifier == "where")
        var low = Walker(task)
        low.next(["pain": "2"])
        #expect(low.run.isFinished)
    }

    @Test("%context is the expression's item even before it has an answer, so an enableWhenExpression can name its own linkId")
    func contextBeforeAnAnswer() throws {
        let task = try loadSurvey(#"""
            {"resourceType": "Questionnaire", "id": "ctx", "status": "active", "item": [
              {"linkId": "1", "text": "Vaccinated?", "type": "choice", "answerOption": [
                {"valueCoding": {"code": "Y", "display": "Yes"}}, {"valueCoding": {"code": "N", "display": "No"}}]},
              {"linkId": "yes", "text": "When?", "type": "date", "extension": [
                {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression",
                 "valueExpression": {"language": "text/fhirpath",
                                     "expression": "%resource.item.where(linkId = '1').answer.value.display.lower() = %context.linkId"}}]},
              {"linkId": "end", "text": "Thank you", "type": "display"}]}
            """#)
        var yes = Walker(task)
        yes.next(["1": "Y"])
        #expect(yes.currentIdentifier == "yes")
        var no = Walker(task)
        no.next(["1": "N"])
        #expect(no.currentIdentifier == "end")
    }
}
