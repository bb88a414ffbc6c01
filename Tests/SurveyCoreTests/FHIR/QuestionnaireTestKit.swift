import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The FHIR fixtures, found from this source file: Tests/SurveyCoreTests/FHIR/ → the package root.
enum FHIRFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/SurveyCoreTests/Fixtures/fhir")

    static let names = ["phq-9.json", "height-weight-bmi.json", "nested-groups.json", "stu3-options.json", "bilingual-intake.json"]

    static func questionnaire(_ name: String) throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    }
}

/// JSON written inline in a FHIR test; a fault is recorded as the test's.
func fhirJSON(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        Issue.record("The test's JSON does not parse: \(error)", sourceLocation: sourceLocation)
        return .null
    }
}

/// What one import gave, with shortcuts for the tests.
struct ImportOutcome {
    let survey: JSONValue?
    let diagnostics: [Diagnostic]

    var errors: [Diagnostic] { diagnostics.filter(\.isError) }
    var warnings: [Diagnostic] { diagnostics.filter { !$0.isError } }

    func value(_ path: JSONStep...) -> JSONValue? {
        var current = survey
        for step in path { current = pick(current, step) }
        return current
    }

    /// The first finding of that severity at that path (written as `$.item[0].type`).
    func finding(_ severity: Diagnostic.Severity, at path: String) -> Diagnostic? {
        diagnostics.first { $0.severity == severity && $0.path.description == path }
    }
}

/// Imports a Questionnaire written inline.
func importQuestionnaire(_ text: String, fallback: String = "fallback", sourceLocation: SourceLocation = #_sourceLocation) -> ImportOutcome {
    let (survey, diagnostics) = QuestionnaireImport.survey(from: fhirJSON(text, sourceLocation: sourceLocation), fallbackIdentifier: fallback)
    return ImportOutcome(survey: survey, diagnostics: diagnostics)
}

/// Imports a Questionnaire made of these items (JSON text of the `item` array's elements),
/// with `root` holding any further resource keys (", \"extension\": […]").
func importItems(_ items: String, root: String = "", sourceLocation: SourceLocation = #_sourceLocation) -> ImportOutcome {
    importQuestionnaire(#"{"resourceType": "Questionnaire", "id": "test", "status": "active"\#(root), "item": [\#(items)]}"#,
                        sourceLocation: sourceLocation)
}

/// Records every diagnostic when there are errors, so a failing test says why.
func expectNoErrors(_ outcome: ImportOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.errors.isEmpty, "\(outcome.errors.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    #expect(outcome.survey != nil, sourceLocation: sourceLocation)
}
