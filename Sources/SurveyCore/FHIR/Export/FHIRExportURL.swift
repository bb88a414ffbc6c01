import Foundation
import JSON

/// The code systems and identifier systems the FHIR exports write, and the presenter's own
/// URLs (its extensions are documented on `FHIRStepTiming`); HL7's extensions are in `FHIRExtensionURL`.
enum FHIRExportURL {
    // Code systems and identifier systems.
    static let ucum = "http://unitsofmeasure.org"
    static let uri = "urn:ietf:rfc:3986"
    static let itemControlSystem = "http://hl7.org/fhir/questionnaire-item-control"

    // The presenter's own extensions.
    static let stepTiming = "urn:survey-presenter:fhir:step-timing"
    static let runTiming = "urn:survey-presenter:fhir:run-timing"
    /// The SHA-256 of a signed consent copy, as the run's result gives it (R4's Attachment.hash is SHA-1).
    static let copySHA256 = "urn:survey-presenter:fhir:consent-copy-sha256"
    /// The Questionnaire canonical for a survey without `fhir.url`, before its identifier.
    static let questionnairePrefix = "urn:survey-presenter:questionnaire:"
}
