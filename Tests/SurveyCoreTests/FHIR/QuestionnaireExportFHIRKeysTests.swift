import Foundation
import JSON
@testable import SurveyCore
import Testing

/// The survey format's FHIR additions (docs/fhir.md) come back out as the Questionnaire had them.
struct QuestionnaireExportFHIRKeysTests {
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "phq_short", "title": "<b>PHQ</b> short", "languages": ["en", "de"],
      "kioskIdle": "discard", "showAnswersOnCompletion": true,
      "variables": [ { "name": "total", "expression": "%resource.repeat(item).answer.value.sum()" } ],
      "fhir": { "url": "http://example.org/Questionnaire/phq", "version": "3", "name": "PHQShort", "status": "draft",
                "code": [ { "system": "http://loinc.org", "code": "44249-1" } ] },
      "steps": [
        { "identifier": "intro", "type": "instruction", "title": { "en": "Hello", "de": "Hallo" }, "image": "images/a.png", "imageAlt": "A",
          "showsProgress": false, "fhir": { "linkId": "i0" } },
        { "identifier": "film", "type": "videoInstruction", "title": "Watch", "videoURL": "https://example.org/v.mp4" },
        { "identifier": "interest", "type": "question", "question": "1. Little interest?", "initial": ["LA6569-3"],
          "fhir": { "linkId": "/44250-9", "prefix": "1.", "code": [ { "system": "http://loinc.org", "code": "44250-9" } ],
                    "extension": [ { "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
                                     "valueCodeableConcept": { "coding": [ { "code": "radio-button" } ] } } ] },
          "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
            { "text": "Not at all", "value": "LA6568-5",
              "fhir": { "system": "http://loinc.org", "code": "LA6568-5", "display": "Not at all", "valueType": "coding" },
              "extension": [ { "url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 0 } ] },
            { "text": "Several days", "value": "LA6569-3",
              "fhir": { "system": "http://loinc.org", "code": "LA6569-3", "display": "Several days",
                        "extension": [ { "url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 1 } ] } } ] } },
        { "identifier": "score", "type": "question", "title": "Score", "readOnly": true, "hidden": true, "calculatedExpression": "%total",
          "variables": [ { "name": "double", "expression": "%total * 2" } ],
          "answerFormat": { "type": "numeric", "style": "integer" } },
        { "identifier": "start", "type": "question", "title": "Start", "initial": 5, "answerFormat": { "type": "numeric", "style": "integer" } },
        { "identifier": "wrong", "type": "question", "title": "Wrong", "initial": "five", "answerFormat": { "type": "numeric", "style": "integer" } },
        { "identifier": "details", "type": "form", "title": "Details", "optional": false,
          "variables": [ { "name": "n", "expression": "1" } ], "fhir": { "linkId": "grp" },
          "items": [
            { "identifier": "name", "text": "Name", "detailText": "As on your card", "placeholder": "Ana Example",
              "answerFormat": { "type": "text", "minimumLength": 2, "validationRegularExpression": "^(?:[A-Za-z ]+)$" }, "initialExpression": "'Ana'" },
            { "note": "<p>Only if you answered.</p>", "visibleIf": { "result": "interest", "answered": true } },
            { "note": "Coded note", "fhir": { "linkId": "n-2" } },
            { "identifier": "pet", "text": "Pet", "initial": ["dog"], "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
              { "text": "Dog", "value": "dog" }, { "text": "Something else", "value": "other", "other": { "placeholder": "Which?" } } ] } },
            { "identifier": "born", "text": "Born", "answerFormat": { "type": "age", "useYearForResult": true } },
            { "identifier": "day", "text": "Day", "answerFormat": { "type": "date", "daysBeforeCurrentDate": 30, "daysAfterCurrentDate": 0 } }
          ] },
        { "identifier": "check", "type": "review" }
      ],
      "skipRules": { "check": { "result": "interest", "answered": false } } }
    """)

    static func export() -> (questionnaire: JSONValue, notes: [Diagnostic]) {
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: "ignored")
        expectFHIRClean(exported.questionnaire)
        return exported
    }

    @Test func rootFromFHIRKeys() {
        let questionnaire = Self.export().questionnaire
        #expect(questionnaire[fx: "id"] == .string("phq-short"))
        #expect(questionnaire[fx: "url"] == .string("http://example.org/Questionnaire/phq"))
        #expect(questionnaire[fx: "version"] == .string("3"))
        #expect(questionnaire[fx: "name"] == .string("PHQShort"))
        #expect(questionnaire[fx: "title"] == .string("PHQ short"))
        #expect(questionnaire[fx: "status"] == .string("draft"))
        #expect(questionnaire[fx: "language"] == .string("en"))
        #expect(questionnaire[fx: "code"] == FHIRExportFixtures.json(#"[{"system": "http://loinc.org", "code": "44249-1"}]"#))
        #expect(questionnaire[fx: "extension"] == FHIRExportFixtures.json("""
        [{"url": "http://hl7.org/fhir/StructureDefinition/variable",
          "valueExpression": {"name": "total", "language": "text/fhirpath", "expression": "%resource.repeat(item).answer.value.sum()"}}]
        """))
    }

    @Test func nameWithoutFHIR() {
        #expect(QuestionnaireExport.name(identifier: "every-format") == "EveryFormat")
        #expect(QuestionnaireExport.name(identifier: "phq_9.v2") == "Phq9V2")
        #expect(QuestionnaireExport.name(identifier: "2024-intake") == "Survey2024Intake")
    }

    @Test func questionKeepsCodePrefixAndExtensions() throws {
        let item = try #require(fhirItem("/44250-9", in: Self.export().questionnaire))
        #expect(item[fx: "prefix"] == .string("1."))
        #expect(item[fx: "text"] == .string("Little interest?"))
        #expect(item[fx: "code"] == FHIRExportFixtures.json(#"[{"system": "http://loinc.org", "code": "44250-9"}]"#))
        #expect(item[fx: "extension"]?.fxArray?.count == 1)
        #expect(item[fx: "initial"] == nil)
        #expect(item[fx: "answerOption"] == FHIRExportFixtures.json("""
        [{"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 0}],
          "valueCoding": {"system": "http://loinc.org", "code": "LA6568-5", "display": "Not at all"}},
         {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 1}],
          "valueCoding": {"system": "http://loinc.org", "code": "LA6569-3", "display": "Several days"}, "initialSelected": true}]
        """))
    }

    @Test func calculatedHiddenReadOnly() throws {
        let item = try #require(fhirItem("score", in: Self.export().questionnaire))
        #expect(item[fx: "readOnly"] == .bool(true))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", on: item)?[fx: "valueBoolean"] == .bool(true))
        let calculated = fhirExtension("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression", on: item)
        #expect(calculated?[fx: "valueExpression"]?[fx: "expression"] == .string("%total"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/variable", on: item)?[fx: "valueExpression"]?[fx: "name"] == .string("double"))
    }

    @Test func initialValues() {
        let questionnaire = Self.export().questionnaire
        #expect(fhirItem("start", in: questionnaire)?[fx: "initial"] == FHIRExportFixtures.json(#"[{"valueInteger": 5}]"#))
        #expect(fhirItem("wrong", in: questionnaire)?[fx: "initial"] == nil)
        let pet = fhirItem("details.pet", in: questionnaire)
        #expect(pet?[fx: "type"] == .string("open-choice"))
        #expect(pet?[fx: "answerOption"] == FHIRExportFixtures.json(#"[{"valueCoding": {"code": "dog", "display": "Dog"}, "initialSelected": true}]"#))
    }

    @Test func formGroupNotesAndExpressions() throws {
        let questionnaire = Self.export().questionnaire
        let group = try #require(fhirItem("grp", in: questionnaire))
        #expect(group[fx: "type"] == .string("group"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/variable", on: group)?[fx: "valueExpression"]?[fx: "name"] == .string("n"))
        #expect(fhirChildLinkIds(group) == ["details.name", "details.note1", "n-2", "details.pet", "details.born", "details.day"])
        let name = fhirItem("details.name", in: questionnaire)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/minLength", on: name)?[fx: "valueInteger"] == .number(2))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/regex", on: name)?[fx: "valueString"] == .string("[A-Za-z ]+"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/entryFormat", on: name)?[fx: "valueString"] == .string("As on your card"))
        let initial = fhirExtension("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression", on: name)
        #expect(initial?[fx: "valueExpression"]?[fx: "expression"] == .string("'Ana'"))
        let note = fhirItem("details.note1", in: questionnaire)
        #expect(note?[fx: "type"] == .string("display"))
        #expect(note?[fx: "text"] == .string("Only if you answered."))
        #expect(note?[fx: "enableWhen"] == FHIRExportFixtures.json(#"[{"question": "/44250-9", "operator": "exists", "answerBoolean": true}]"#))
        #expect(fhirItem("n-2", in: questionnaire)?[fx: "text"] == .string("Coded note"))
        let born = fhirItem("details.born", in: questionnaire)
        #expect(born?[fx: "type"] == .string("integer"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: born) == nil)
        let day = fhirItem("details.day", in: questionnaire)
        let minimum = fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: day)?[fx: "_valueDate"]?[fx: "extension"]?.fxArray?.first
        #expect(minimum?[fx: "valueExpression"]?[fx: "expression"] == .string("today() - 30 days"))
    }

    @Test func displaysAndLeftOutSteps() {
        let questionnaire = Self.export().questionnaire
        #expect(fhirChildLinkIds(questionnaire) == ["i0", "film", "/44250-9", "score", "start", "wrong", "grp"])
        #expect(fhirItem("i0", in: questionnaire)?[fx: "text"] == .string("Hello"))
        #expect(fhirItem("film", in: questionnaire)?[fx: "type"] == .string("display"))
    }

    @Test func notes() {
        let notes = Self.export().notes
        #expect(notes.map(\.path.description) == [
            "$.steps[0].image", "$.steps[0].showsProgress", "$.steps[1].videoURL", "$.steps[5].initial",
            "$.steps[6].optional", "$.steps[6].items[0].placeholder", "$.steps[6].items[4].answerFormat.useYearForResult", "$.steps[7]", "$.skipRules.check",
            "$.languages", "$.kioskIdle", "$.showAnswersOnCompletion",
        ])
        #expect(notes.first { $0.path.description == "$.steps[1].videoURL" }?.message.contains("https://example.org/v.mp4") == true)
        #expect(notes.first { $0.path.description == "$.languages" }?.message.contains("(en)") == true)
    }

    @Test func unitExtensionsFitTheItemType() {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "units", "steps": [
          { "identifier": "dose", "type": "question", "title": "Dose", "fhir": { "type": "integer" },
            "answerFormat": { "type": "numeric", "style": "integer", "unit": "mg" } },
          { "identifier": "height", "type": "question", "title": "Height",
            "fhir": { "type": "quantity", "extension": [ { "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption",
                                                             "valueCoding": { "system": "http://unitsofmeasure.org", "code": "cm", "display": "centimetre" } } ] },
            "answerFormat": { "type": "numeric", "style": "decimal", "unit": "centimetre" } } ] }
        """)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil)
        expectFHIRClean(exported.questionnaire)
        #expect(exported.notes.isEmpty)
        let dose = fhirItem("dose", in: exported.questionnaire)
        #expect(dose?[fx: "type"] == .string("integer"))
        #expect(dose?[fx: "extension"] == FHIRExportFixtures.json("""
        [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "mg"}}]
        """))
        let height = fhirItem("height", in: exported.questionnaire)
        #expect(height?[fx: "type"] == .string("quantity"))
        #expect(height?[fx: "extension"]?.fxArray?.count == 1)

        let result = FHIRRunResult.run([
            FHIRRunResult.step("dose", [FHIRRunResult.question("dose", "numeric", #""numericAnswer": 20, "unit": "mg""#)]),
            FHIRRunResult.step("height", [FHIRRunResult.question("height", "numeric", #""numericAnswer": 170.5, "unit": "centimetre""#)]),
        ])
        let response = QuestionnaireResponseExport.response(survey: survey, result: result, surveyVersion: nil)
        expectFHIRClean(response)
        #expect(fhirItem("dose", in: response)?[fx: "answer"] == FHIRExportFixtures.json(#"[{"valueInteger": 20}]"#))
        #expect(fhirItem("height", in: response)?[fx: "answer"] == FHIRExportFixtures.json("""
        [{"valueQuantity": {"value": 170.5, "unit": "centimetre", "system": "http://unitsofmeasure.org", "code": "cm"}}]
        """))
    }

    @Test func regexMatchesTheWholeAnswer() {
        #expect(QuestionnaireExport.Builder.fhirPattern("^(?:[0-9]{5})$") == "[0-9]{5}")
        #expect(QuestionnaireExport.Builder.fhirPattern("^[A-Z]{2}-[0-9]{4}$") == "^[A-Z]{2}-[0-9]{4}$")
        #expect(QuestionnaireExport.Builder.fhirPattern("[0-9]") == #"[\s\S]*(?:[0-9])[\s\S]*"#)
        #expect(QuestionnaireExport.Builder.fhirPattern(#"^costs \$"#) == #"[\s\S]*(?:^costs \$)[\s\S]*"#)
    }

    @Test func aTextThatRepeatsTheHintIsNoLoss() {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "hint", "steps": [ { "identifier": "code", "type": "question", "question": "Postcode",
          "text": "Five digits", "answerFormat": { "type": "text", "validationRegularExpression": "^[0-9]{5}$", "invalidMessage": "Five digits" } } ] }
        """)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil)
        #expect(exported.notes.isEmpty)
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/entryFormat", on: fhirItem("code", in: exported.questionnaire))?[fx: "valueString"]
            == .string("Five digits"))
    }
}
