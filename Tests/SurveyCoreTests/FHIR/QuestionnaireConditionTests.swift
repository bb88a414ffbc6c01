import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// enableWhen, enableBehavior and enableWhenExpression, and where each condition goes.
@Suite struct QuestionnaireConditionTests {
    /// A form "f" with a target question of the given type and options, then "later" holding the condition.
    func condition(target: String, _ enableWhen: String, sourceLocation: SourceLocation = #_sourceLocation) -> (JSONValue?, ImportOutcome) {
        let outcome = importItems(#"""
            {"linkId": "f", "text": "Form", "type": "group", "item": [
              \#(target),
              {"linkId": "later", "text": "Later", "type": "boolean", "enableWhen": [\#(enableWhen)]}]}
            """#, sourceLocation: sourceLocation)
        return (outcome.value("steps", 0, "items", 1, "visibleIf"), outcome)
    }

    static let integerTarget = #"{"linkId": "n", "text": "N", "type": "integer"}"#

    @Test func existsTestsWhetherTheQuestionWasAnswered() {
        let (answered, first) = condition(target: Self.integerTarget, #"{"question": "n", "operator": "exists", "answerBoolean": true}"#)
        expectNoErrors(first)
        #expect(answered == fhirJSON(#"{"result": "f.n", "answered": true}"#))
        let (unanswered, _) = condition(target: Self.integerTarget, #"{"question": "n", "operator": "exists", "answerBoolean": false}"#)
        #expect(unanswered == fhirJSON(#"{"result": "f.n", "answered": false}"#))
    }

    @Test(arguments: ["=", "!=", ">", "<", ">=", "<="])
    func everyComparisonOperator(_ operation: String) {
        let (predicate, outcome) = condition(target: Self.integerTarget, #"{"question": "n", "operator": "\#(operation)", "answerInteger": 3}"#)
        expectNoErrors(outcome)
        #expect(predicate == .object(JSONObject([("result", .string("f.n")), ("compare", .string(operation)), ("value", .number(3))])))
    }

    @Test func anUnknownOperatorIsAnError() {
        let (_, outcome) = condition(target: Self.integerTarget, #"{"question": "n", "operator": "~", "answerInteger": 3}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].item[1].enableWhen[0].operator")?.message.contains("'later'") == true)
    }

    @Test func eachAnswerTypeGivesTheValueItsResultRecords() {
        let cases: [(target: String, answer: String, value: JSONValue)] = [
            (#"{"linkId": "x", "text": "X", "type": "boolean"}"#, #""answerBoolean": true"#, .bool(true)),
            (#"{"linkId": "x", "text": "X", "type": "decimal"}"#, #""answerDecimal": 2.5"#, .number(2.5)),
            (#"{"linkId": "x", "text": "X", "type": "date"}"#, #""answerDate": "2026-02-01""#, .string("2026-02-01")),
            (#"{"linkId": "x", "text": "X", "type": "dateTime"}"#, #""answerDateTime": "2026-02-01T10:00:00Z""#, .string("2026-02-01T10:00:00Z")),
            (#"{"linkId": "x", "text": "X", "type": "time"}"#, #""answerTime": "08:15:00""#, .string("08:15")),
            (#"{"linkId": "x", "text": "X", "type": "string"}"#, #""answerString": "no""#, .string("no")),
            (#"{"linkId": "x", "text": "X", "type": "quantity"}"#, #""answerQuantity": {"value": 80, "code": "kg"}"#, .number(80)),
            (#"{"linkId": "x", "text": "X", "type": "choice", "answerOption": [{"valueCoding": {"system": "http://s", "code": "c1"}}]}"#,
             #""answerCoding": {"system": "http://s", "code": "c1"}"#, .string("c1")),
            (#"{"linkId": "x", "text": "X", "type": "choice", "answerOption": [{"valueCoding": {"code": "c2"}}]}"#,
             #""answerCoding": {"system": "http://any", "code": "c2"}"#, .string("c2")),
        ]
        for entry in cases {
            let (predicate, outcome) = condition(target: entry.target, #"{"question": "x", "operator": "=", \#(entry.answer)}"#)
            expectNoErrors(outcome)
            #expect(pick(predicate, "value") == entry.value, "\(entry.answer)")
        }
    }

    @Test func aCodingNoOptionHasIsAnErrorNamingBothItems() {
        let target = #"{"linkId": "smoker", "text": "Smoker?", "type": "choice", "answerOption": [{"valueCoding": {"system": "http://s", "code": "y"}}]}"#
        let (_, outcome) = condition(target: target, #"{"question": "smoker", "operator": "=", "answerCoding": {"system": "http://other", "code": "y"}}"#)
        #expect(outcome.survey == nil)
        let message = outcome.finding(.error, at: "$.item[0].item[1].enableWhen[0].answerCoding")?.message
        #expect(message?.contains("'later'") == true)
        #expect(message?.contains("'smoker'") == true)
    }

    @Test func enableBehaviorJoinsConditionsAndOneConditionHasNoWrapper() {
        let target = Self.integerTarget
        let two = #"{"question": "n", "operator": ">=", "answerInteger": 1}, {"question": "n", "operator": "!=", "answerInteger": 5}"#
        let anyOutcome = importItems(#"""
            {"linkId": "f", "text": "F", "type": "group", "item": [\#(target),
              {"linkId": "a", "text": "A", "type": "boolean", "enableBehavior": "any", "enableWhen": [\#(two)]},
              {"linkId": "b", "text": "B", "type": "boolean", "enableBehavior": "all", "enableWhen": [\#(two)]},
              {"linkId": "c", "text": "C", "type": "boolean", "enableBehavior": "all", "enableWhen": [{"question": "n", "operator": "=", "answerInteger": 2}]}]}
            """#)
        expectNoErrors(anyOutcome)
        #expect(anyOutcome.value("steps", 0, "items", 1, "visibleIf") == fhirJSON(#"""
            {"any": [{"result": "f.n", "compare": ">=", "value": 1}, {"result": "f.n", "compare": "!=", "value": 5}]}
            """#))
        #expect(anyOutcome.value("steps", 0, "items", 2, "visibleIf") == fhirJSON(#"""
            {"all": [{"result": "f.n", "compare": ">=", "value": 1}, {"result": "f.n", "compare": "!=", "value": 5}]}
            """#))
        #expect(anyOutcome.value("steps", 0, "items", 3, "visibleIf") == fhirJSON(#"{"result": "f.n", "compare": "=", "value": 2}"#))
    }

    @Test func anUnknownLinkIdOrATargetThatAsksNothingIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "intro", "text": "Hello", "type": "display"},
            {"linkId": "a", "text": "A", "type": "boolean", "enableWhen": [{"question": "nowhere", "operator": "exists", "answerBoolean": true}]},
            {"linkId": "b", "text": "B", "type": "boolean", "enableWhen": [{"question": "intro", "operator": "exists", "answerBoolean": true}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[1].enableWhen[0].question")?.message.contains("'nowhere'") == true)
        #expect(outcome.finding(.error, at: "$.item[2].enableWhen[0].question")?.message.contains("'intro'") == true)
    }

    @Test func aTopLevelStepsConditionIsASkipRule() {
        let outcome = importItems(#"""
            {"linkId": "smokes", "text": "Smoke?", "type": "boolean"},
            {"linkId": "how-many", "text": "How many?", "type": "integer", "enableWhen": [{"question": "smokes", "operator": "=", "answerBoolean": true}]},
            {"linkId": "g", "text": "More", "type": "group", "enableWhen": [{"question": "smokes", "operator": "exists", "answerBoolean": true}],
             "item": [{"linkId": "x", "text": "X", "type": "boolean"}]},
            {"linkId": "note", "text": "For smokers", "type": "display", "enableWhen": [{"question": "smokes", "operator": "=", "answerBoolean": true}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("skipRules") == fhirJSON(#"""
            {"how-many": {"not": {"result": "smokes", "compare": "=", "value": true}},
             "g": {"not": {"result": "smokes", "answered": true}},
             "note": {"not": {"result": "smokes", "compare": "=", "value": true}}}
            """#))
        #expect(outcome.value("steps", 2, "items", 0, "visibleIf") == nil)
    }

    @Test func aFormQuestionsOrNotesConditionIsItsVisibleIf() {
        let outcome = importItems(#"""
            {"linkId": "f", "text": "F", "type": "group", "item": [
              {"linkId": "pain", "text": "Pain?", "type": "boolean"},
              {"linkId": "pain-note", "text": "Tell us where.", "type": "display", "enableWhen": [{"question": "pain", "operator": "=", "answerBoolean": true}]},
              {"linkId": "where", "text": "Where?", "type": "string", "enableWhen": [{"question": "pain", "operator": "=", "answerBoolean": true}]}]}
            """#)
        expectNoErrors(outcome)
        let expected = fhirJSON(#"{"result": "f.pain", "compare": "=", "value": true}"#)
        #expect(outcome.value("steps", 0, "items", 1) == .object(JSONObject([
            ("note", .string("Tell us where.")), ("visibleIf", expected), ("fhir", fhirJSON(#"{"linkId": "pain-note"}"#)),
        ])))
        #expect(outcome.value("steps", 0, "items", 2, "visibleIf") == expected)
        #expect(outcome.value("skipRules") == nil)
    }

    @Test func aNestedGroupsConditionHoldsForEveryItemInsideButNotItsHeader() {
        let outcome = importItems(#"""
            {"linkId": "f", "text": "F", "type": "group", "item": [
              {"linkId": "pets", "text": "Pets?", "type": "boolean"},
              {"linkId": "kids", "text": "Children?", "type": "boolean"},
              {"linkId": "pet-group", "text": "Your pets", "type": "group", "enableWhen": [{"question": "pets", "operator": "=", "answerBoolean": true}], "item": [
                {"linkId": "dog", "text": "Dog?", "type": "boolean", "enableWhen": [{"question": "kids", "operator": "exists", "answerBoolean": true}]},
                {"linkId": "inner", "text": "More", "type": "group", "item": [{"linkId": "cat", "text": "Cat?", "type": "boolean"}]}]}]}
            """#)
        expectNoErrors(outcome)
        let pets = #"{"result": "f.pets", "compare": "=", "value": true}"#
        #expect(outcome.value("steps", 0, "items", 2, "visibleIf") == nil)
        #expect(outcome.value("steps", 0, "items", 3, "visibleIf") == fhirJSON(#"{"all": [\#(pets), {"result": "f.kids", "answered": true}]}"#))
        #expect(outcome.value("steps", 0, "items", 4, "visibleIf") == nil)
        #expect(outcome.value("steps", 0, "items", 5, "visibleIf") == fhirJSON(pets))
    }

    @Test func aConditionMayNameAQuestionInAnotherGroup() {
        let outcome = importItems(#"""
            {"linkId": "first", "text": "First", "type": "group", "item": [{"linkId": "allergic", "text": "Allergic?", "type": "boolean"}]},
            {"linkId": "second", "text": "Second", "type": "group", "item": [
              {"linkId": "details", "text": "Details", "type": "group", "enableWhen": [{"question": "allergic", "operator": "=", "answerBoolean": true}],
               "item": [{"linkId": "what", "text": "To what?", "type": "string"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 1, "items", 1, "visibleIf") == fhirJSON(#"{"result": "first.allergic", "compare": "=", "value": true}"#))
    }

    @Test func aConditionOnALaterItemIsWarnedAbout() {
        let outcome = importItems(#"""
            {"linkId": "early", "text": "Early", "type": "boolean", "enableWhen": [{"question": "late", "operator": "=", "answerBoolean": true}]},
            {"linkId": "late", "text": "Late", "type": "boolean"}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("skipRules", "early") == fhirJSON(#"{"not": {"result": "late", "compare": "=", "value": true}}"#))
        let message = outcome.finding(.warning, at: "$.item[0].enableWhen[0].question")?.message
        #expect(message?.contains("'early'") == true)
        #expect(message?.contains("before that answer is given") == true)
    }

    @Test func enableWhenExpressionIsAnExpressionPredicateAndedWithEnableWhen() {
        let expression = #"{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression", "valueExpression": {"language": "text/fhirpath", "expression": "%age > 18"}}"#
        let outcome = importItems(#"""
            {"linkId": "f", "text": "F", "type": "group", "item": [
              {"linkId": "n", "text": "N", "type": "integer"},
              {"linkId": "a", "text": "A", "type": "boolean", "extension": [\#(expression)]},
              {"linkId": "b", "text": "B", "type": "boolean", "extension": [\#(expression)], "enableBehavior": "any", "enableWhen": [
                {"question": "n", "operator": "<", "answerInteger": 2}, {"question": "n", "operator": ">", "answerInteger": 8}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 0, "items", 1, "visibleIf") == fhirJSON(#"{"expression": "%age > 18"}"#))
        #expect(outcome.value("steps", 0, "items", 2, "visibleIf") == fhirJSON(#"""
            {"all": [{"any": [{"result": "f.n", "compare": "<", "value": 2}, {"result": "f.n", "compare": ">", "value": 8}]}, {"expression": "%age > 18"}]}
            """#))
    }

    @Test func stu3HasAnswerAndAnswerWithoutOperator() {
        let outcome = importItems(#"""
            {"linkId": "1", "text": "One", "type": "string"},
            {"linkId": "2", "text": "Two", "type": "boolean", "enableWhen": [{"question": "1", "hasAnswer": false}]},
            {"linkId": "3", "text": "Three", "type": "boolean", "enableWhen": [{"question": "1", "answerString": "yes"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("skipRules", "2") == fhirJSON(#"{"not": {"result": "1", "answered": false}}"#))
        #expect(outcome.value("skipRules", "3") == fhirJSON(#"{"not": {"result": "1", "compare": "=", "value": "yes"}}"#))
    }
}
