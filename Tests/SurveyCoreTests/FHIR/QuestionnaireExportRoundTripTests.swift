import Foundation
import JSON
@testable import SurveyCore
import Testing

/// The export is the import's inverse: a survey exported and imported again loads, and a
/// Questionnaire imported and exported comes back as the same survey.
struct QuestionnaireExportRoundTripTests {
    static func fixture(_ name: String) throws -> JSONValue {
        let url = FHIRExportFixtures.packageRoot.appendingPathComponent("Tests/SurveyCoreTests/Fixtures/fhir/\(name).json")
        return try JSONParser.parse(Data(contentsOf: url))
    }

    @Test func everyFormatComesBackAsASurveyThatLoads() throws {
        let task = try SurveyLoader.load(JSONWriter.data(FHIRExportFixtures.everyFormat())).task
        let questionnaire = QuestionnaireExport.questionnaire(fromSurvey: task.json, surveyVersion: task.version).questionnaire
        let (survey, diagnostics) = QuestionnaireImport.survey(from: questionnaire, fallbackIdentifier: "every-format")
        #expect(diagnostics.filter(\.isError).isEmpty, "\(diagnostics)")
        let imported = try #require(survey)
        let loaded = SurveyLoader.diagnose(imported)
        #expect(loaded.task != nil, "\(loaded.diagnostics)")
        let steps = (imported[fx: "steps"]?.fxArray ?? []).compactMap { $0[fx: "identifier"]?.fxString }
        #expect(steps == task.steps.map(\.identifier).filter { $0 != "review" })
    }

    @Test(arguments: ["phq-9", "nested-groups"])
    func importedQuestionnaireExportsToTheSameSurvey(_ name: String) throws {
        let (survey, _) = QuestionnaireImport.survey(from: try Self.fixture(name), fallbackIdentifier: name)
        let first = try #require(survey)
        let task = try #require(SurveyLoader.diagnose(first).task)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: task.json, surveyVersion: nil)
        expectFHIRClean(exported.questionnaire)
        #expect(exported.notes.isEmpty, "\(exported.notes)")
        let (again, _) = QuestionnaireImport.survey(from: exported.questionnaire, fallbackIdentifier: name)
        #expect(again == first)
    }

    @Test func responseToAnImportedQuestionnaireUsesItsLinkIds() throws {
        let original = try Self.fixture("phq-9")
        let (survey, _) = QuestionnaireImport.survey(from: original, fallbackIdentifier: "phq-9")
        let imported = try #require(survey)
        let task = try #require(SurveyLoader.diagnose(imported).task)
        let result = FHIRRunResult.run([
            FHIRRunResult.step("44249-1", [
                FHIRRunResult.question("44250-9", "choice", #""choiceAnswers": ["LA6569-3"]"#),
                FHIRRunResult.question("44255-8", "choice", #""choiceAnswers": ["LA6568-5"]"#),
            ]),
        ], identifier: task.identifier)
        let response = QuestionnaireResponseExport.response(survey: task.json, result: result, surveyVersion: task.version)
        expectFHIRClean(response)
        #expect(response[fx: "questionnaire"]?.fxString?.hasPrefix(original[fx: "url"]?.fxString ?? "?") == true)
        let group = fhirItem("44249-1", in: response)
        #expect(fhirChildLinkIds(group) == ["44250-9", "44255-8"])
        #expect(fhirItem("44250-9", in: response)?[fx: "answer"] == FHIRExportFixtures.json("""
        [{"valueCoding": {"system": "http://loinc.org", "code": "LA6569-3", "display": "Several days"}}]
        """))
    }
}
