import FHIRPath
import Foundation
import JSON

/// The FHIR extensions a Questionnaire import honours, by URL, shared by the importer and
/// the exporter so that both spell them alike.
public enum FHIRExtensionURL {
    /// Core FHIR R4 extensions live under this base.
    public static let core = "http://hl7.org/fhir/StructureDefinition/"
    /// Structured Data Capture (SDC) extensions live under this base.
    public static let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"

    // MARK: Core

    public static let hidden = core + "questionnaire-hidden"
    public static let itemControl = core + "questionnaire-itemControl"
    public static let unit = core + "questionnaire-unit"
    public static let unitOption = core + "questionnaire-unitOption"
    public static let minValue = core + "minValue"
    public static let maxValue = core + "maxValue"
    public static let maxDecimalPlaces = core + "maxDecimalPlaces"
    public static let regex = core + "regex"
    public static let entryFormat = core + "entryFormat"
    public static let minLength = core + "minLength"
    public static let minOccurs = core + "questionnaire-minOccurs"
    public static let maxOccurs = core + "questionnaire-maxOccurs"
    public static let sliderStepValue = core + "questionnaire-sliderStepValue"
    public static let variable = core + "variable"
    public static let dataAbsentReason = core + "data-absent-reason"
    public static let choiceOrientation = core + "questionnaire-choiceOrientation"
    public static let optionExclusive = core + "questionnaire-optionExclusive"
    public static let cqfExpression = core + "cqf-expression"

    // MARK: Structured Data Capture

    public static let calculatedExpression = sdc + "sdc-questionnaire-calculatedExpression"
    public static let enableWhenExpression = sdc + "sdc-questionnaire-enableWhenExpression"
    public static let initialExpression = sdc + "sdc-questionnaire-initialExpression"
    public static let minQuantity = sdc + "sdc-questionnaire-minQuantity"
    public static let maxQuantity = sdc + "sdc-questionnaire-maxQuantity"
    public static let observationExtract = sdc + "sdc-questionnaire-observationExtract"

    // MARK: Groups

    /// The extensions that carry a choice's score, kept on the choice for `%questionnaire` expressions.
    /// FHIRPath's `ordinal()` reads the same list.
    public static let choiceScores = FHIRScoreExtensions.urls

    /// Item extensions kept verbatim in the item's `fhir.extension`: what the survey format has
    /// no key for (a unit's code and system, the control asked for, the repeat limit), so an
    /// export can give them back.
    /// `observationExtract` says which answers go to the EHR as Observations.
    public static let kept: Set<String> = [itemControl, unit, unitOption, maxOccurs, observationExtract]

    /// The FHIRPath language code an expression must carry to be evaluated.
    public static let fhirPathLanguage = "text/fhirpath"
}
