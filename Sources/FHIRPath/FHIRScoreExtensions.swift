import Foundation

/// The extensions that give a coded answer its score, in the order they are looked for: R4's
/// `ordinalValue` and `itemWeight`, then the earlier spellings still found in published forms
/// (STU3 and R4 drafts). SDC's `ordinal()` reads them, and the Questionnaire import keeps them.
public enum FHIRScoreExtensions {
    public static let urls: [String] = [
        "http://hl7.org/fhir/StructureDefinition/ordinalValue",
        "http://hl7.org/fhir/StructureDefinition/itemWeight",
        "http://hl7.org/fhir/StructureDefinition/questionnaire-ordinalValue",
        "http://hl7.org/fhir/StructureDefinition/iso21090-CO-value",
    ]
}
