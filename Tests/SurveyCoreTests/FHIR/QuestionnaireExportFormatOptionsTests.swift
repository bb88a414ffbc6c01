import Foundation
import JSON
@testable import SurveyCore
import Testing

/// Options the Questionnaire carries are read as the format's own file reads and defaults them.
struct QuestionnaireExportFormatOptionsTests {
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "options", "steps": [ { "identifier": "about", "type": "form", "items": [
        { "identifier": "light", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric", "numericPrecision": "low" } },
        { "identifier": "usual", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric" } },
        { "identifier": "fine", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric", "numericPrecision": "high" } },
        { "identifier": "local", "text": "Weight", "answerFormat": { "type": "weight", "numericPrecision": "low" } },
        { "identifier": "adult", "text": "Age", "answerFormat": { "type": "age", "minimumAge": 18, "maximumAge": 65 } },
        { "identifier": "born", "text": "Born", "answerFormat": { "type": "age", "minimumAge": 18, "useYearForResult": true } },
        { "identifier": "share", "text": "Share", "answerFormat": { "type": "continuousScale", "minimum": 0, "maximum": 1, "numberStyle": "percent" } },
        { "identifier": "whole", "text": "Whole", "answerFormat": { "type": "continuousScale", "minimum": 0, "maximum": 9 } },
        { "identifier": "level", "text": "Level", "answerFormat": { "type": "numeric", "minimum": -5, "maximum": 5.5, "maximumFractionDigits": 3 } },
        { "identifier": "steps", "text": "Steps", "answerFormat": { "type": "numeric", "style": "integer", "unit": "kg", "maximum": 9 } },
        { "identifier": "open", "text": "Open", "answerFormat": { "type": "text", "maximumLength": 0, "minimumLength": 2 } },
        { "identifier": "short", "text": "Short", "answerFormat": { "type": "text", "maximumLength": 20 } },
        { "identifier": "visit", "text": "Visit", "answerFormat": { "type": "date", "minimumDate": "2020-01-01", "daysBeforeCurrentDate": 7, "daysAfterCurrentDate": 0 } }
    ] } ] }
    """)

    static let questionnaire = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).questionnaire

    static func value(_ url: String, _ type: String, on linkId: String) -> JSONValue? {
        fhirExtension(url, on: fhirItem(linkId, in: questionnaire))?[fx: "value" + type]
    }

    @Test("A weight's decimal places follow its precision; asked in the participant's units, two", arguments: [
        ("about.light", 0.0), ("about.usual", 1), ("about.fine", 2), ("about.local", 2),
    ])
    func weightDecimalPlaces(linkId: String, places: Double) {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "Integer", on: linkId) == .number(places))
    }

    @Test func aPercentSliderRecordsTwoMoreDecimalsAndAWholeOneStepsByOne() {
        let places = "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces"
        let step = "http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue"
        #expect(Self.value(places, "Integer", on: "about.share") == .number(2))
        #expect(Self.value(step, "Integer", on: "about.share") == nil)
        #expect(Self.value(places, "Integer", on: "about.whole") == .number(0))
        #expect(Self.value(step, "Integer", on: "about.whole") == .number(1))
    }

    @Test func aNumbersBoundsAndDecimalPlacesAreTheAuthors() {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Decimal", on: "about.level") == .number(-5))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxValue", "Decimal", on: "about.level") == .number(5.5))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "Integer", on: "about.level") == .number(3))
        // A whole number asked as a quantity says so with no decimal places.
        #expect(fhirItem("about.steps", in: Self.questionnaire)?[fx: "type"] == .string("quantity"))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "Integer", on: "about.steps") == .number(0))
        #expect(Self.value("http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-maxQuantity", "Quantity", on: "about.steps")?[fx: "value"] == .number(9))
    }

    @Test func aTextOfMaximumLengthZeroHasNoLimit() {
        #expect(fhirItem("about.open", in: Self.questionnaire)?[fx: "maxLength"] == nil)
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minLength", "Integer", on: "about.open") == .number(2))
        #expect(fhirItem("about.short", in: Self.questionnaire)?[fx: "maxLength"] == .number(20))
    }

    @Test func aFixedDateBoundWinsOverDaysAroundToday() {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Date", on: "about.visit") == .string("2020-01-01"))
        let maximum = fhirExtension("http://hl7.org/fhir/StructureDefinition/maxValue", on: fhirItem("about.visit", in: Self.questionnaire))
        #expect(maximum?[fx: "_valueDate"]?[fx: "extension"]?.fxArray?.first?[fx: "valueExpression"]?[fx: "expression"] == .string("today()"))
        let notes = QuestionnaireExport.questionnaire(fromSurvey: Self.survey, surveyVersion: nil).notes
        #expect(notes.contains { $0.path.description == "$.steps[0].items[12].answerFormat.daysBeforeCurrentDate" && $0.message.contains("\"minimumDate\"") })
    }

    @Test func pickedValuesAreJoinedByTheFormatsSeparatorOrASpace() throws {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "blood", "steps": [
          { "identifier": "slash", "type": "question", "title": "Group", "initial": ["A", "+"],
            "answerFormat": { "type": "multipleValuePicker", "separator": "/", "pickers": [ [ { "text": "A", "value": "A" } ], [ { "text": "+", "value": "+" } ] ] } },
          { "identifier": "plain", "type": "question", "title": "Group", "initial": ["A", "+"],
            "answerFormat": { "type": "multipleValuePicker", "pickers": [ [ { "text": "A", "value": "A" } ], [ { "text": "+", "value": "+" } ] ] } } ] }
        """)
        let questionnaire = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).questionnaire
        #expect(fhirItem("slash", in: questionnaire)?[fx: "initial"] == FHIRExportFixtures.json(#"[{"valueString": "A/+"}]"#))
        #expect(fhirItem("plain", in: questionnaire)?[fx: "initial"] == FHIRExportFixtures.json(#"[{"valueString": "A +"}]"#))
        // A result that recorded no separator takes its question's.
        let result = FHIRRunResult.run([
            FHIRRunResult.step("slash", [FHIRRunResult.question("slash", "multipleComponent", #""componentsAnswer": ["O", "-"]"#)]),
            FHIRRunResult.step("plain", [FHIRRunResult.question("plain", "multipleComponent", #""componentsAnswer": ["O", "-"]"#)]),
        ])
        let response = QuestionnaireResponseExport.response(survey: survey, result: result, surveyVersion: nil)
        #expect(fhirItem("slash", in: response)?[fx: "answer"] == FHIRExportFixtures.json(#"[{"valueString": "O/-"}]"#))
        #expect(fhirItem("plain", in: response)?[fx: "answer"] == FHIRExportFixtures.json(#"[{"valueString": "O -"}]"#))
    }

    @Test func ageBoundsAreTheAuthorsUnlessTheAnswerIsABirthYear() {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Integer", on: "about.adult") == .number(18))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxValue", "Integer", on: "about.adult") == .number(65))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Integer", on: "about.born") == nil)
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxValue", "Integer", on: "about.born") == nil)
    }
}
