import Foundation
import JSON

/// Turns a FHIR R4 `Questionnaire` (and the STU3 forms still found in public libraries) into a
/// survey file of format v1 with the FHIR additions described in docs/fhir.md.
///
/// The import never stops at the first fault: every finding comes back as a diagnostic whose
/// path points into the Questionnaire, and the survey is given only when none is an error.
public enum QuestionnaireImport {
    /// True when the JSON is an object whose resourceType is "Questionnaire".
    public static func isQuestionnaire(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, case .string("Questionnaire")? = object["resourceType"] else { return false }
        return true
    }

    /// The survey file (survey format JSON) equivalent to the Questionnaire, with every finding; the
    /// survey is nil when any diagnostic is an error. Paths are JSONPaths into the Questionnaire
    /// (`$.item[2].item[0].enableWhen[1].operator`). Messages are plain English sentences that name the linkId.
    /// `terminology` holds the ValueSets the Questionnaire may name without containing them.
    public static func survey(from questionnaire: JSONValue, fallbackIdentifier: String,
                              terminology: FHIRTerminology = .none) -> (survey: JSONValue?, diagnostics: [Diagnostic]) {
        let read = read(questionnaire, fallbackIdentifier: fallbackIdentifier, terminology: terminology)
        return (read.survey, read.diagnostics)
    }

    /// The survey with its findings and, when there is a survey, where its parts came from.
    static func read(_ questionnaire: JSONValue, fallbackIdentifier: String,
                     terminology: FHIRTerminology = .none) -> (survey: JSONValue?, diagnostics: [Diagnostic], origins: Origins?) {
        let reader = Reader(terminology: terminology)
        let survey = reader.survey(from: questionnaire, fallbackIdentifier: fallbackIdentifier)
        let diagnostics = reader.diagnostics
        guard let survey, !diagnostics.contains(where: \.isError) else { return (nil, diagnostics, nil) }
        return (survey, diagnostics, Origins(survey: survey, items: reader.items.mapValues(\.path),
                                                     expressions: reader.items.mapValues(\.expressionPaths)))
    }
}
