import Foundation

/// The canonical URLs the FHIR exports write: HL7 extensions, SDC extensions, code systems,
/// and the presenter's own extensions (documented on `FHIRStepTiming`).
enum FHIRExportURL {
    // Code systems and identifier systems.
    static let ucum = "http://unitsofmeasure.org"
    static let uri = "urn:ietf:rfc:3986"
    static let itemControlSystem = "http://hl7.org/fhir/questionnaire-item-control"
    static let expressionLanguage = "text/fhirpath"

    // Core extensions.
    static let dataAbsentReason = "http://hl7.org/fhir/StructureDefinition/data-absent-reason"
    static let hidden = "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden"
    static let itemControl = "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl"
    static let unit = "http://hl7.org/fhir/StructureDefinition/questionnaire-unit"
    static let unitOption = "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption"
    static let sliderStepValue = "http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue"
    static let choiceOrientation = "http://hl7.org/fhir/StructureDefinition/questionnaire-choiceOrientation"
    static let optionExclusive = "http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive"
    static let minValue = "http://hl7.org/fhir/StructureDefinition/minValue"
    static let maxValue = "http://hl7.org/fhir/StructureDefinition/maxValue"
    static let minLength = "http://hl7.org/fhir/StructureDefinition/minLength"
    static let maxDecimalPlaces = "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces"
    static let regex = "http://hl7.org/fhir/StructureDefinition/regex"
    static let entryFormat = "http://hl7.org/fhir/StructureDefinition/entryFormat"
    static let variable = "http://hl7.org/fhir/StructureDefinition/variable"
    static let cqfExpression = "http://hl7.org/fhir/StructureDefinition/cqf-expression"

    // Structured Data Capture extensions.
    static let calculatedExpression = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression"
    static let initialExpression = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression"
    static let enableWhenExpression = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression"
    static let minQuantity = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-minQuantity"
    static let maxQuantity = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-maxQuantity"

    // The presenter's own extensions.
    static let stepTiming = "urn:survey-presenter:fhir:step-timing"
    static let runTiming = "urn:survey-presenter:fhir:run-timing"
    /// The Questionnaire canonical for a survey without `fhir.url`, before its identifier.
    static let questionnairePrefix = "urn:survey-presenter:questionnaire:"
}
