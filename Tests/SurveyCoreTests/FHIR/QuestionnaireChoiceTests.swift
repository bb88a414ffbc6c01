import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Choice and open-choice items: where their options come from and how they are shown.
@Suite struct QuestionnaireChoiceTests {
    static let yesNo = #"""
        [{"valueCoding": {"system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "Y", "display": "Yes"}},
         {"valueCoding": {"system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "N", "display": "No"}}]
        """#

    static func control(_ code: String) -> String {
        #"{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", "valueCodeableConcept": {"coding": [{"code": "\#(code)"}]}}"#
    }

    @Test func aCodingOptionGivesItsCodeDisplayAndSystem() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "choice", "answerOption": \#(Self.yesNo)}"#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat") == fhirJSON(#"""
            {"type": "textChoice", "style": "singleChoice", "choices": [
              {"text": "Yes", "value": "Y", "fhir": {"system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "Y", "display": "Yes", "valueType": "coding"}},
              {"text": "No", "value": "N", "fhir": {"system": "http://terminology.hl7.org/CodeSystem/v2-0136", "code": "N", "display": "No", "valueType": "coding"}}]}
            """#))
    }

    @Test func aCodingWithoutDisplayShowsItsCode() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "choice", "answerOption": [{"valueCoding": {"code": "a1"}}]}"#)
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 0) == fhirJSON(#"{"text": "a1", "value": "a1", "fhir": {"code": "a1", "valueType": "coding"}}"#))
    }

    @Test func stringIntegerAndDateOptions() {
        let outcome = importItems(#"""
            {"linkId": "s", "text": "S?", "type": "choice", "answerOption": [{"valueString": "Red"}]},
            {"linkId": "i", "text": "I?", "type": "choice", "answerOption": [{"valueInteger": 3}]},
            {"linkId": "d", "text": "D?", "type": "choice", "answerOption": [{"valueDate": "2026-01-31"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 0) == fhirJSON(#"{"text": "Red", "value": "Red", "fhir": {"valueType": "string"}}"#))
        #expect(outcome.value("steps", 1, "answerFormat", "choices", 0) == fhirJSON(#"{"text": "3", "value": 3, "fhir": {"valueType": "integer"}}"#))
        #expect(outcome.value("steps", 2, "answerFormat", "choices", 0) == fhirJSON(#"{"text": "2026-01-31", "value": "2026-01-31", "fhir": {"valueType": "date"}}"#))
    }

    @Test func anOptionOfAnotherTypeIsAnError() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "choice", "answerOption": [{"valueTime": "10:00:00"}]}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].answerOption[0]")?.message.contains("'q'") == true)
    }

    @Test func ordinalValueAndItemWeightOnTheOptionOrItsCodingAreKept() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerOption": [
              {"valueCoding": {"code": "a"}, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 1}]},
              {"valueCoding": {"code": "b", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 2.5}]}},
              {"valueString": "c", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 4}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 0, "fhir", "extension")
            == fhirJSON(#"[{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 1}]"#))
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 1, "fhir", "extension")
            == fhirJSON(#"[{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 2.5}]"#))
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 2, "fhir", "extension")
            == fhirJSON(#"[{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 4}]"#))
    }

    @Test func anOtherOptionExtensionIsIgnoredWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerOption": [
              {"valueString": "a", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/rendering-xhtml", "valueString": "<b>a</b>"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.finding(.warning, at: "$.item[0].answerOption[0].extension[0]")?.message.contains("ignored extension") == true)
    }

    @Test func repeatsMakesAMultipleChoice() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "choice", "repeats": true, "answerOption": \#(Self.yesNo)}"#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "style") == .string("multipleChoice"))
    }

    @Test func aListControlOnASingleChoiceIsAValuePicker() {
        for code in ["drop-down", "autocomplete", "lookup"] {
            let outcome = importItems(#"""
                {"linkId": "q", "text": "Q?", "type": "choice", "answerOption": \#(Self.yesNo), "extension": [\#(Self.control(code))]}
                """#)
            expectNoErrors(outcome)
            #expect(outcome.value("steps", 0, "answerFormat", "type") == .string("valuePicker"))
            #expect(outcome.value("steps", 0, "answerFormat", "style") == nil)
            #expect(outcome.value("steps", 0, "fhir", "extension", 0, "url") == .string("http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl"))
        }
    }

    @Test func aListControlOnARepeatingChoiceKeepsCheckboxesWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "repeats": true, "answerOption": \#(Self.yesNo), "extension": [\#(Self.control("drop-down"))]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "type") == .string("textChoice"))
        #expect(outcome.finding(.warning, at: "$.item[0].extension[0]") != nil)
    }

    @Test func buttonControlsKeepATextChoiceAndOtherControlsAreIgnored() {
        let outcome = importItems(#"""
            {"linkId": "a", "text": "A?", "type": "choice", "answerOption": \#(Self.yesNo), "extension": [\#(Self.control("radio-button"))]},
            {"linkId": "b", "text": "B?", "type": "choice", "repeats": true, "answerOption": \#(Self.yesNo), "extension": [\#(Self.control("check-box"))]},
            {"linkId": "c", "text": "C?", "type": "choice", "answerOption": \#(Self.yesNo), "extension": [\#(Self.control("spinner"))]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "type") == .string("textChoice"))
        #expect(outcome.value("steps", 1, "answerFormat", "type") == .string("textChoice"))
        #expect(outcome.value("steps", 2, "answerFormat", "type") == .string("textChoice"))
        #expect(outcome.warnings.map(\.path.description) == ["$.item[2].extension[0]"])
        #expect(outcome.warnings.first?.message.contains("'spinner'") == true)
    }

    @Test func openChoiceAddsAnOtherBox() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "open-choice", "answerOption": [{"valueString": "Dog"}]}"#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "choices") == fhirJSON(#"""
            [{"text": "Dog", "value": "Dog", "fhir": {"valueType": "string"}}, {"text": "Other", "value": "other", "other": {"optional": true}}]
            """#))
    }

    @Test func duplicateValuesAreAnError() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerOption": [
              {"valueCoding": {"system": "http://a.org", "code": "1"}}, {"valueCoding": {"system": "http://b.org", "code": "1"}}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].answerOption[1].valueCoding")?.message.contains("'q'") == true)
    }

    @Test func aContainedValueSetGivesTheOptions() {
        let outcome = importItems(##"{"linkId": "q", "text": "Q?", "type": "choice", "answerValueSet": "#yn"}"##, root: #"""
            , "contained": [{"resourceType": "ValueSet", "id": "yn", "status": "active", "compose": {"include": [
                {"system": "http://snomed.info/sct", "concept": [
                  {"code": "373066001", "display": "Yes", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 1}]},
                  {"code": "373067005", "display": "No"}]}]}}]
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "choices") == fhirJSON(#"""
            [{"text": "Yes", "value": "373066001", "fhir": {"system": "http://snomed.info/sct", "code": "373066001", "display": "Yes", "valueType": "coding",
              "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 1}]}},
             {"text": "No", "value": "373067005", "fhir": {"system": "http://snomed.info/sct", "code": "373067005", "display": "No", "valueType": "coding"}}]
            """#))
    }

    @Test func aContainedExpansionGivesTheOptions() {
        let outcome = importItems(##"{"linkId": "q", "text": "Q?", "type": "choice", "answerValueSet": "#colours"}"##, root: #"""
            , "contained": [{"resourceType": "ValueSet", "id": "colours", "status": "active", "expansion": {"timestamp": "2026-01-01", "contains": [
                {"system": "http://example.org/colour", "code": "warm", "display": "Warm", "abstract": true, "contains": [
                  {"system": "http://example.org/colour", "code": "red", "display": "Red"}]},
                {"system": "http://example.org/colour", "code": "blue", "display": "Blue"}]}}]
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 0, "value") == .string("red"))
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 1, "fhir", "system") == .string("http://example.org/colour"))
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 2) == nil)
    }

    @Test func aValueSetThatIsNotContainedIsAnError() {
        let outcome = importItems(##"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerValueSet": "http://hl7.org/fhir/ValueSet/yesnodontknow"},
            {"linkId": "r", "text": "R?", "type": "choice", "answerValueSet": "#missing"}
            """##)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].answerValueSet")?.message.contains("terminology server") == true)
        #expect(outcome.finding(.error, at: "$.item[1].answerValueSet")?.message.contains("'r'") == true)
        // Each says why once, with no second error about missing options.
        #expect(outcome.finding(.error, at: "$.item[0]") == nil)
        #expect(outcome.finding(.error, at: "$.item[1]") == nil)
    }

    @Test("A ValueSet named by its canonical URL, with or without its version, is found among the contained ones")
    func aContainedValueSetByCanonicalURL() {
        let outcome = importItems(##"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerValueSet": "http://example.org/fhir/ValueSet/yn"},
            {"linkId": "r", "text": "R?", "type": "choice", "answerValueSet": "http://example.org/fhir/ValueSet/yn|2.1"},
            {"linkId": "s", "text": "S?", "type": "choice", "answerValueSet": "http://example.org/fhir/ValueSet/yn|1.0"}
            """##, root: #"""
            , "contained": [{"resourceType": "ValueSet", "id": "yes-no", "url": "http://example.org/fhir/ValueSet/yn", "version": "2.1",
                "status": "active", "compose": {"include": [{"system": "http://snomed.info/sct", "concept": [
                  {"code": "373066001", "display": "Yes"}, {"code": "373067005", "display": "No"}]}]}}]
            """#)
        #expect(outcome.survey == nil, "another version is not the one contained")
        #expect(outcome.finding(.error, at: "$.item[2].answerValueSet")?.message.contains("neither contained in the Questionnaire nor in the surveys folder or the FHIR packages") == true)
        #expect(outcome.finding(.error, at: "$.item[0].answerValueSet") == nil)
        #expect(outcome.finding(.error, at: "$.item[1].answerValueSet") == nil)
        let fixed = importItems(##"""
            {"linkId": "q", "text": "Q?", "type": "choice", "answerValueSet": "http://example.org/fhir/ValueSet/yn"},
            {"linkId": "r", "text": "R?", "type": "choice", "answerValueSet": "http://example.org/fhir/ValueSet/yn|2.1"}
            """##, root: #"""
            , "contained": [{"resourceType": "ValueSet", "id": "yes-no", "url": "http://example.org/fhir/ValueSet/yn", "version": "2.1",
                "status": "active", "compose": {"include": [{"system": "http://snomed.info/sct", "concept": [
                  {"code": "373066001", "display": "Yes"}, {"code": "373067005", "display": "No"}]}]}}]
            """#)
        expectNoErrors(fixed)
        #expect(fixed.value("steps", 0, "answerFormat", "choices", 1, "value") == .string("373067005"))
        #expect(fixed.value("steps", 1, "answerFormat", "choices", 1, "value") == .string("373067005"))
    }

    @Test func stu3OptionIsReadLikeAnswerOption() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "option": [{"valueCoding": {"system": "http://hl7.org/fhir/v2/0136", "code": "Y", "display": "Yes"}}, {"valueString": "Maybe"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 0, "value") == .string("Y"))
        #expect(outcome.value("steps", 0, "answerFormat", "choices", 1, "value") == .string("Maybe"))
    }

    @Test func maxOccursIsNotEnforcedButOneMakesASingleChoice() {
        let outcome = importItems(#"""
            {"linkId": "a", "text": "A?", "type": "choice", "repeats": true, "answerOption": \#(Self.yesNo), "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 2}]},
            {"linkId": "b", "text": "B?", "type": "choice", "repeats": true, "answerOption": \#(Self.yesNo), "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 1}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "answerFormat", "style") == .string("multipleChoice"))
        #expect(outcome.finding(.warning, at: "$.item[0].extension[0]")?.message.contains("not enforced") == true)
        #expect(outcome.value("steps", 1, "answerFormat", "style") == .string("singleChoice"))
        #expect(outcome.warnings.count == 1)
    }
}
