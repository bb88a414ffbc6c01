import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Item types other than choices, with the extensions that shape their answer formats.
@Suite struct QuestionnaireFormatTests {
    /// The answer format of a single top-level question.
    func format(_ item: String, sourceLocation: SourceLocation = #_sourceLocation) -> (JSONValue?, ImportOutcome) {
        let outcome = importItems(item, sourceLocation: sourceLocation)
        return (outcome.value("steps", 0, "answerFormat"), outcome)
    }

    @Test func boolean() {
        let (format, outcome) = format(#"{"linkId": "q", "text": "Q?", "type": "boolean"}"#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "boolean"}"#))
    }

    @Test func decimalWithBoundsFractionDigitsAndUnit() {
        let (format, outcome) = format(#"""
            {"linkId": "t", "text": "Temperature", "type": "decimal", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueDecimal": 34.5},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 43},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "valueInteger": 1},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
               "valueCoding": {"system": "http://unitsofmeasure.org", "code": "Cel", "display": "°C"}}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "decimal", "minimum": 34.5, "maximum": 43, "maximumFractionDigits": 1, "unit": "°C"}"#))
    }

    @Test func theUnitIsTheCodeWhenThereIsNoDisplay() {
        let (format, _) = format(#"""
            {"linkId": "t", "text": "Dose", "type": "integer", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "mg"}}]}
            """#)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "integer", "unit": "mg"}"#))
    }

    @Test func aDecimalSliderIsAContinuousScale() {
        let (format, outcome) = format(#"""
            {"linkId": "pain", "text": "Pain", "type": "decimal", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueDecimal": 0},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueDecimal": 10},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "valueInteger": 1},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
               "valueCodeableConcept": {"coding": [{"system": "http://hl7.org/fhir/questionnaire-item-control", "code": "slider"}]}}]}
            """#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "continuousScale", "minimum": 0, "maximum": 10, "maximumFractionDigits": 1}"#))
    }

    @Test func aSliderWithoutBothBoundsStaysANumberWithAWarning() {
        let (format, outcome) = format(#"""
            {"linkId": "pain", "text": "Pain", "type": "decimal", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueDecimal": 0},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
               "valueCodeableConcept": {"coding": [{"code": "slider"}]}}]}
            """#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "decimal", "minimum": 0}"#))
        #expect(outcome.finding(.warning, at: "$.item[0].extension[1]")?.message.contains("'pain'") == true)
    }

    @Test func integerWithBounds() {
        let (format, outcome) = format(#"""
            {"linkId": "n", "text": "How many?", "type": "integer", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 0},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 99}]}
            """#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "integer", "minimum": 0, "maximum": 99}"#))
    }

    @Test func anIntegerSliderIsAScaleWithTheSliderStep() {
        let (format, outcome) = format(#"""
            {"linkId": "n", "text": "Rate", "type": "integer", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 0},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 100},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue", "valueInteger": 10},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", "valueCodeableConcept": {"coding": [{"code": "slider"}]}}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(format == fhirJSON(#"{"type": "scale", "minimum": 0, "maximum": 100, "step": 10}"#))
    }

    @Test func anIntegerSliderWithTooManyStepsStaysANumberWithAWarning() {
        let (format, outcome) = format(#"""
            {"linkId": "n", "text": "Rate", "type": "integer", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 0},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueInteger": 100},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", "valueCodeableConcept": {"coding": [{"code": "slider"}]}}]}
            """#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "integer", "minimum": 0, "maximum": 100}"#))
        #expect(outcome.finding(.warning, at: "$.item[0].extension[2]")?.message.contains("1 to 13 steps") == true)
    }

    @Test func quantityTakesItsUnitFromTheFirstUnitOptionAndKeepsTheCodings() {
        let (format, outcome) = format(#"""
            {"linkId": "h", "text": "Height", "type": "quantity", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "cm", "display": "centimetres"}},
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "[in_i]", "display": "inches"}}]}
            """#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "decimal", "unit": "centimetres"}"#))
        #expect(outcome.finding(.warning, at: "$.item[0].extension[1]")?.message.contains("only the first") == true)
        #expect(outcome.value("steps", 0, "fhir", "extension", 1, "valueCoding", "code") == .string("[in_i]"))
    }

    @Test func quantityPrefersTheQuestionnaireUnit() {
        let (format, _) = format(#"""
            {"linkId": "h", "text": "Height", "type": "quantity", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", "valueCoding": {"code": "m"}}]}
            """#)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "decimal", "unit": "m"}"#))
    }

    @Test func dateWithBoundsDateTimeAndTime() {
        let outcome = importItems(#"""
            {"linkId": "d", "text": "Date", "type": "date", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueDate": "1900-01-01"},
              {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueDate": "2030-12-31"}]},
            {"linkId": "dt", "text": "When", "type": "dateTime", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueDateTime": "2020-01-01T00:00:00Z"}]},
            {"linkId": "t", "text": "Time", "type": "time"}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat") == fhirJSON(#"{"type": "date", "style": "date", "minimumDate": "1900-01-01", "maximumDate": "2030-12-31"}"#))
        #expect(outcome.value("steps", 1, "answerFormat") == fhirJSON(#"{"type": "date", "style": "dateAndTime", "minimumDate": "2020-01-01T00:00:00Z"}"#))
        #expect(outcome.value("steps", 2, "answerFormat") == fhirJSON(#"{"type": "timeOfDay"}"#))
    }

    @Test func stringTextAndURL() {
        let outcome = importItems(#"""
            {"linkId": "s", "text": "Name", "type": "string"},
            {"linkId": "t", "text": "Story", "type": "text"},
            {"linkId": "u", "text": "Web site", "type": "url"}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat") == fhirJSON(#"{"type": "text"}"#))
        #expect(outcome.value("steps", 1, "answerFormat") == fhirJSON(#"{"type": "text", "multipleLines": true}"#))
        #expect(outcome.value("steps", 2, "answerFormat") == fhirJSON(#"""
            {"type": "text", "validationRegularExpression": "^[A-Za-z][A-Za-z0-9+.-]*:\\S+$", "invalidMessage": "Enter a web address, such as https://example.org."}
            """#))
    }

    @Test func maxLengthMinLengthRegexAndEntryFormat() {
        let outcome = importItems(#"""
            {"linkId": "code", "text": "Code", "type": "string", "maxLength": 7, "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/minLength", "valueInteger": 7},
              {"url": "http://hl7.org/fhir/StructureDefinition/regex", "valueString": "^[A-Z]{2}-[0-9]{4}$"},
              {"url": "http://hl7.org/fhir/StructureDefinition/entryFormat", "valueString": "AB-1234"}]},
            {"linkId": "g", "text": "Form", "type": "group", "item": [
              {"linkId": "zip", "text": "Postcode", "type": "string", "extension": [
                {"url": "http://hl7.org/fhir/StructureDefinition/entryFormat", "valueString": "5 digits"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat") == fhirJSON(#"""
            {"type": "text", "maximumLength": 7, "minimumLength": 7, "validationRegularExpression": "^(?:^[A-Z]{2}-[0-9]{4}$)$", "invalidMessage": "AB-1234"}
            """#))
        #expect(outcome.value("steps", 0, "text") == .string("AB-1234"))
        #expect(outcome.value("steps", 1, "items", 0, "detailText") == .string("5 digits"))
        #expect(outcome.value("steps", 1, "items", 0, "answerFormat") == fhirJSON(#"{"type": "text"}"#))
    }

    @Test("A pattern with no entryFormat, and a url item, get a message of their own, so the survey they become is accepted")
    func patternsWithoutEntryFormatGetAMessage() {
        let items = #"""
            {"linkId": "code", "text": "Code", "type": "string", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/regex", "valueString": "[A-Z]{2}"}]},
            {"linkId": "site", "text": "Site", "type": "url"}
            """#
        let outcome = importItems(items)
        expectNoErrors(outcome)
        guard case .string(let message)? = outcome.value("steps", 0, "answerFormat", "invalidMessage") else {
            Issue.record("no message for the pattern")
            return
        }
        #expect(message.contains("not in the form"))
        #expect(outcome.value("steps", 1, "answerFormat", "invalidMessage") == .string("Enter a web address, such as https://example.org."))
        let file = #"{"resourceType": "Questionnaire", "id": "t", "status": "active", "item": [\#(items)]}"#
        let (task, diagnostics) = SurveyLoader.diagnose(Data(file.utf8), name: "t")
        #expect(task != nil)
        #expect(diagnostics.filter(\.isError).isEmpty, "\(diagnostics)")
    }

    @Test func maxLengthOnANumberIsIgnoredWithAWarning() {
        let (format, outcome) = format(#"{"linkId": "n", "text": "N", "type": "integer", "maxLength": 3}"#)
        expectNoErrors(outcome)
        #expect(format == fhirJSON(#"{"type": "numeric", "style": "integer"}"#))
        #expect(outcome.finding(.warning, at: "$.item[0].maxLength") != nil)
    }

    @Test func minOccursMakesAQuestionRequired() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "boolean", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-minOccurs", "valueInteger": 1}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 0, "optional") == .bool(false))
    }

    @Test func expressionsBecomeInitialAndCalculatedExpressions() {
        let outcome = importItems(#"""
            {"linkId": "age", "text": "Age", "type": "integer", "extension": [
              {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression",
               "valueExpression": {"language": "text/fhirpath", "expression": "%age"}}]},
            {"linkId": "twice", "text": "Twice", "type": "integer", "readOnly": true, "extension": [
              {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
               "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId = 'age').answer.value * 2"}}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initialExpression") == .string("%age"))
        #expect(outcome.value("steps", 1, "calculatedExpression") == .string("%resource.item.where(linkId = 'age').answer.value * 2"))
    }

    @Test func itemVariablesGoOnTheQuestionAndGroupVariablesOnTheForm() {
        let variable = #"{"url": "http://hl7.org/fhir/StructureDefinition/variable", "valueExpression": {"name": "NAME", "language": "text/fhirpath", "expression": "1"}}"#
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q", "type": "integer", "extension": [\#(variable.replacingOccurrences(of: "NAME", with: "a"))]},
            {"linkId": "g", "text": "G", "type": "group", "extension": [\#(variable.replacingOccurrences(of: "NAME", with: "b"))], "item": [
              {"linkId": "inner", "text": "Inner", "type": "group", "extension": [\#(variable.replacingOccurrences(of: "NAME", with: "c"))], "item": [
                {"linkId": "r", "text": "R", "type": "integer"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "variables") == fhirJSON(#"[{"name": "a", "expression": "1"}]"#))
        #expect(outcome.value("steps", 1, "variables") == fhirJSON(#"[{"name": "b", "expression": "1"}, {"name": "c", "expression": "1"}]"#))
    }

    @Test func anExpressionInAnotherLanguageIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "bmi", "text": "BMI", "type": "decimal", "extension": [
              {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
               "valueExpression": {"language": "text/cql", "expression": "Weight / (Height * Height)"}}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].extension[0].valueExpression.language")?.message.contains("'bmi'") == true)
    }

    @Test func anUnknownExtensionIsIgnoredWithAWarningAtItsPath() {
        let outcome = importItems(#"""
            {"linkId": "g", "text": "G", "type": "group", "item": [
              {"linkId": "q", "text": "Q?", "type": "boolean", "extension": [
                {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": false},
                {"url": "http://example.org/fhir/StructureDefinition/colour", "valueString": "blue"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.count == 1)
        #expect(outcome.finding(.warning, at: "$.item[0].item[0].extension[1]")?.message
            == "The item 'q' has an ignored extension http://example.org/fhir/StructureDefinition/colour: this presenter does not use it.")
    }

    @Test func anHonouredExtensionThatDoesNotApplyIsIgnoredWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "boolean", "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "valueInteger": 2}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.finding(.warning, at: "$.item[0].extension[0]")?.message.contains("ignored extension") == true)
    }
}
