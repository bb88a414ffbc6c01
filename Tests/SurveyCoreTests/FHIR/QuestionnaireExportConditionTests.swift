import Foundation
import JSON
@testable import SurveyCore
import Testing

/// Predicates as enableWhen: each mapping, and each condition that cannot map.
struct QuestionnaireExportConditionTests {
    static let targets = """
      { "identifier": "bool", "type": "question", "answerFormat": { "type": "boolean" } },
      { "identifier": "num", "type": "question", "answerFormat": { "type": "numeric", "style": "integer" } },
      { "identifier": "dec", "type": "question", "answerFormat": { "type": "numeric", "style": "decimal" } },
      { "identifier": "pet", "type": "question", "answerFormat": { "type": "textChoice", "style": "multipleChoice", "choices": [
        { "text": "Dog", "value": "dog" }, { "text": "Cat", "value": "cat" } ] } },
      { "identifier": "coded", "type": "question", "fhir": { "linkId": "q-coded" }, "answerFormat": { "type": "textChoice", "style": "singleChoice",
        "choices": [ { "text": "Yes", "value": "Y", "fhir": { "system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "Y", "display": "Yes" } } ] } },
      { "identifier": "level", "type": "question", "answerFormat": { "type": "textScale", "choices": [ { "text": "1", "value": 1 }, { "text": "2", "value": 2 } ] } },
      { "identifier": "when", "type": "question", "answerFormat": { "type": "date", "style": "date" } },
      { "identifier": "wake", "type": "question", "answerFormat": { "type": "timeOfDay" } },
      { "identifier": "txt", "type": "question", "answerFormat": { "type": "text" } },
      { "identifier": "f", "type": "form", "items": [ { "identifier": "a", "answerFormat": { "type": "scale", "minimum": 0, "maximum": 10 } } ] }
    """

    /// The item `subject.x`, shown when `visibleIf` holds, and the notes.
    static func visibleIf(_ predicate: String) -> (item: JSONValue?, notes: [Diagnostic]) {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "conditions", "steps": [ \(targets),
          { "identifier": "subject", "type": "form", "items": [ { "identifier": "x", "answerFormat": { "type": "boolean" }, "visibleIf": \(predicate) } ] } ] }
        """)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil)
        expectFHIRClean(exported.questionnaire)
        return (fhirItem("subject.x", in: exported.questionnaire), exported.notes)
    }

    /// The step item `subject`, skipped when `skipRule` holds, and the notes.
    static func skipRule(_ predicate: String) -> (item: JSONValue?, notes: [Diagnostic]) {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "conditions", "steps": [ \(targets),
          { "identifier": "subject", "type": "question", "answerFormat": { "type": "boolean" } } ],
          "skipRules": { "subject": \(predicate) } }
        """)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil)
        expectFHIRClean(exported.questionnaire)
        return (fhirItem("subject", in: exported.questionnaire), exported.notes)
    }

    static let mappings: [(predicate: String, enableWhen: String, behavior: String?)] = [
        (#"{"result": "bool", "answered": true}"#, #"[{"question": "bool", "operator": "exists", "answerBoolean": true}]"#, nil),
        (#"{"result": "bool", "answered": false}"#, #"[{"question": "bool", "operator": "exists", "answerBoolean": false}]"#, nil),
        (#"{"result": "num", "compare": ">", "value": 3}"#, #"[{"question": "num", "operator": ">", "answerInteger": 3}]"#, nil),
        (#"{"result": "dec", "compare": "<=", "value": 2.5}"#, #"[{"question": "dec", "operator": "<=", "answerDecimal": 2.5}]"#, nil),
        (#"{"result": "pet", "compare": "=", "value": "dog"}"#,
         #"[{"question": "pet", "operator": "=", "answerCoding": {"code": "dog", "display": "Dog"}}]"#, nil),
        (#"{"result": "coded", "compare": "=", "value": "Y"}"#,
         #"[{"question": "q-coded", "operator": "=", "answerCoding": {"system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "Y", "display": "Yes"}}]"#, nil),
        (#"{"result": "level", "compare": ">=", "value": 2}"#, #"[{"question": "level", "operator": ">=", "answerInteger": 2}]"#, nil),
        (#"{"result": "when", "compare": ">=", "value": "2026-01-01"}"#, #"[{"question": "when", "operator": ">=", "answerDate": "2026-01-01"}]"#, nil),
        (#"{"result": "wake", "compare": "<", "value": "07:30"}"#, #"[{"question": "wake", "operator": "<", "answerTime": "07:30:00"}]"#, nil),
        (#"{"result": "txt", "compare": "!=", "value": "no"}"#, #"[{"question": "txt", "operator": "!=", "answerString": "no"}]"#, nil),
        (#"{"result": "bool", "equals": true}"#, #"[{"question": "bool", "operator": "=", "answerBoolean": true}]"#, nil),
        (#"{"result": "num", "equals": 4}"#, #"[{"question": "num", "operator": "=", "answerInteger": 4}]"#, nil),
        (#"{"result": "pet", "choice": "cat"}"#, #"[{"question": "pet", "operator": "=", "answerCoding": {"code": "cat", "display": "Cat"}}]"#, nil),
        (#"{"result": "pet", "choices": ["cat"]}"#, #"[{"question": "pet", "operator": "=", "answerCoding": {"code": "cat", "display": "Cat"}}]"#, nil),
        (#"{"result": "f.a", "minimum": 2, "maximum": 8}"#,
         #"[{"question": "f.a", "operator": ">=", "answerInteger": 2}, {"question": "f.a", "operator": "<=", "answerInteger": 8}]"#, "all"),
        (#"{"result": "when", "maximum": "2025-12-31"}"#, #"[{"question": "when", "operator": "<=", "answerDate": "2025-12-31"}]"#, nil),
        (#"{"result": "txt", "isNil": true}"#, #"[{"question": "txt", "operator": "exists", "answerBoolean": false}]"#, nil),
        (#"{"result": "txt", "isNil": false}"#, #"[{"question": "txt", "operator": "exists", "answerBoolean": true}]"#, nil),
        (#"{"not": {"result": "pet", "choice": "dog"}}"#, #"[{"question": "pet", "operator": "!=", "answerCoding": {"code": "dog", "display": "Dog"}}]"#, nil),
        (#"{"not": {"result": "num", "compare": "!=", "value": 1}}"#, #"[{"question": "num", "operator": "=", "answerInteger": 1}]"#, nil),
        (#"{"not": {"result": "num", "compare": ">", "value": 1}}"#, #"[{"question": "num", "operator": "<=", "answerInteger": 1}]"#, nil),
        (#"{"not": {"result": "num", "compare": "<", "value": 1}}"#, #"[{"question": "num", "operator": ">=", "answerInteger": 1}]"#, nil),
        (#"{"not": {"result": "num", "compare": ">=", "value": 1}}"#, #"[{"question": "num", "operator": "<", "answerInteger": 1}]"#, nil),
        (#"{"not": {"result": "num", "compare": "<=", "value": 1}}"#, #"[{"question": "num", "operator": ">", "answerInteger": 1}]"#, nil),
        (#"{"not": {"result": "bool", "answered": true}}"#, #"[{"question": "bool", "operator": "exists", "answerBoolean": false}]"#, nil),
        (#"{"not": {"not": {"result": "bool", "equals": false}}}"#, #"[{"question": "bool", "operator": "=", "answerBoolean": false}]"#, nil),
        (#"{"all": [{"result": "bool", "equals": true}, {"result": "num", "compare": ">", "value": 2}]}"#,
         #"[{"question": "bool", "operator": "=", "answerBoolean": true}, {"question": "num", "operator": ">", "answerInteger": 2}]"#, "all"),
        (#"{"any": [{"result": "bool", "equals": true}, {"result": "txt", "answered": true}]}"#,
         #"[{"question": "bool", "operator": "=", "answerBoolean": true}, {"question": "txt", "operator": "exists", "answerBoolean": true}]"#, "any"),
        (#"{"all": [{"result": "bool", "equals": true}, {"all": [{"result": "num", "equals": 1}]}]}"#,
         #"[{"question": "bool", "operator": "=", "answerBoolean": true}, {"question": "num", "operator": "=", "answerInteger": 1}]"#, "all"),
        (#"{"not": {"all": [{"result": "bool", "equals": true}, {"result": "num", "compare": ">", "value": 2}]}}"#,
         #"[{"question": "bool", "operator": "!=", "answerBoolean": true}, {"question": "num", "operator": "<=", "answerInteger": 2}]"#, "any"),
        (#"{"all": [{"result": "num", "minimum": 1, "maximum": 3}, {"result": "bool", "equals": true}]}"#,
         #"[{"question": "num", "operator": ">=", "answerInteger": 1}, {"question": "num", "operator": "<=", "answerInteger": 3}, {"question": "bool", "operator": "=", "answerBoolean": true}]"#, "all"),
    ]

    @Test(arguments: mappings.indices)
    func predicateMapsToEnableWhen(_ index: Int) {
        let expected = Self.mappings[index]
        let (item, notes) = Self.visibleIf(expected.predicate)
        #expect(notes.filter { $0.message.contains("cannot map") }.isEmpty, "\(notes)")
        #expect(item?[fx: "enableWhen"] == FHIRExportFixtures.json(expected.enableWhen), "\(expected.predicate)")
        #expect(item?[fx: "enableBehavior"]?.fxString == expected.behavior)
    }

    @Test func expressionIsEnableWhenExpression() {
        let (item, notes) = Self.visibleIf(#"{"expression": "%resource.item.count() > 2"}"#)
        #expect(notes.isEmpty)
        #expect(item?[fx: "enableWhen"] == nil)
        let expression = fhirExtension("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression", on: item)
        #expect(expression?[fx: "valueExpression"] == FHIRExportFixtures.json(#"{"language": "text/fhirpath", "expression": "%resource.item.count() > 2"}"#))
    }

    @Test func skipRuleIsNegated() {
        let (item, notes) = Self.skipRule(#"{"result": "bool", "equals": true}"#)
        #expect(notes.isEmpty)
        #expect(item?[fx: "enableWhen"] == FHIRExportFixtures.json(#"[{"question": "bool", "operator": "!=", "answerBoolean": true}]"#))

        let range = Self.skipRule(#"{"result": "num", "minimum": 2, "maximum": 8}"#).item
        #expect(range?[fx: "enableWhen"] == FHIRExportFixtures.json("""
        [{"question": "num", "operator": "<", "answerInteger": 2}, {"question": "num", "operator": ">", "answerInteger": 8}]
        """))
        #expect(range?[fx: "enableBehavior"] == .string("any"))

        let any = Self.skipRule(#"{"any": [{"result": "bool", "answered": true}, {"result": "txt", "answered": true}]}"#).item
        #expect(any?[fx: "enableBehavior"] == .string("all"))
        #expect(any?[fx: "enableWhen"]?.fxArray?.compactMap { $0[fx: "answerBoolean"] } == [.bool(false), .bool(false)])

        let expression = Self.skipRule(#"{"expression": "%age < 18"}"#).item
        let negated = fhirExtension("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression", on: expression)
        #expect(negated?[fx: "valueExpression"]?[fx: "expression"] == .string("(%age < 18).not()"))
    }

    static let refusals: [(predicate: String, path: String, reason: String)] = [
        (#"{"all": [{"result": "bool", "equals": true}, {"any": [{"result": "num", "equals": 1}, {"result": "num", "equals": 2}]}]}"#,
         "$.steps[10].items[0].visibleIf.all[1]", "\"any\" inside \"all\""),
        (#"{"any": [{"result": "bool", "equals": true}, {"result": "num", "minimum": 1, "maximum": 2}]}"#,
         "$.steps[10].items[0].visibleIf.any[1]", "\"all\" inside \"any\""),
        (#"{"result": "txt", "matches": "^a"}"#, "$.steps[10].items[0].visibleIf.matches", "\"matches\" has no enableWhen operator"),
        (#"{"result": "wake", "minimumTime": "07:00"}"#, "$.steps[10].items[0].visibleIf.minimumTime", "\"minimumTime\" has no enableWhen operator"),
        (#"{"result": "num", "dontKnow": true}"#, "$.steps[10].items[0].visibleIf.dontKnow", "\"dontKnow\" has no enableWhen operator"),
        (#"{"result": "pet", "choices": ["dog", "cat"]}"#, "$.steps[10].items[0].visibleIf.choices", "several values"),
        (#"{"all": [{"result": "bool", "equals": true}, {"expression": "true"}]}"#, "$.steps[10].items[0].visibleIf.all[1]", "expression inside"),
        (#"{"result": "nowhere", "answered": true}"#, "$.steps[10].items[0].visibleIf.result", "is no question"),
        (#"{"result": "num", "compare": "=", "value": "many"}"#, "$.steps[10].items[0].visibleIf.value", "does not fit the integer question"),
        (#"{"all": []}"#, "$.steps[10].items[0].visibleIf.all", "empty"),
    ]

    @Test(arguments: refusals.indices)
    func conditionThatCannotMapIsANote(_ index: Int) {
        let expected = Self.refusals[index]
        let (item, notes) = Self.visibleIf(expected.predicate)
        #expect(item?[fx: "enableWhen"] == nil)
        #expect(item?[fx: "enableBehavior"] == nil)
        #expect(notes.count == 1)
        #expect(notes.first?.path.description == expected.path)
        #expect(notes.first?.message.contains("cannot map") == true)
        #expect(notes.first?.message.contains(expected.reason) == true, "\(notes.first?.message ?? "")")
    }

    @Test func skipRuleThatCannotMapIsANote() {
        let (item, notes) = Self.skipRule(#"{"result": "txt", "matches": "^a"}"#)
        #expect(item?[fx: "enableWhen"] == nil)
        #expect(notes.map(\.path.description) == ["$.skipRules.subject.matches"])
    }

    @Test func navigationRulesAreNotes() {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "jumps", "steps": [ \(Self.targets) ],
          "navigationRules": { "bool": { "type": "direct", "destination": "$end" },
                               "num": { "type": "predicate", "rules": [ { "if": { "result": "num", "equals": 1 }, "destination": "txt" } ] } } }
        """)
        let notes = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).notes
        #expect(notes.map(\.path.description) == ["$.navigationRules.bool", "$.navigationRules.num"])
        #expect(notes.allSatisfy { $0.message == "FHIR Questionnaires have no jumps; the rule is left out." })
    }
}
