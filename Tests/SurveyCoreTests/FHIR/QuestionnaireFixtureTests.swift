import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The public instruments and forms in Fixtures/fhir: each imports cleanly, and what it gives
/// loads as a survey.
@Suite struct QuestionnaireFixtureTests {
    @Test(arguments: FHIRFixtures.names)
    func importsWithoutErrors(_ name: String) throws {
        let (survey, diagnostics) = QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire(name), fallbackIdentifier: "fixture")
        let errors = diagnostics.filter(\.isError)
        #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
        #expect(survey != nil)
    }

    /// The whole survey the import writes loads, new keys and all, with no error.
    @Test(arguments: FHIRFixtures.names)
    func loadsAsASurvey(_ name: String) throws {
        let (survey, _) = QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire(name), fallbackIdentifier: "fixture")
        let (task, diagnostics) = SurveyLoader.diagnose(try #require(survey))
        let errors = diagnostics.filter(\.isError)
        #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
        #expect(task != nil)
    }

    @Test func phq9KeepsItsPrefixesScoresAndTotal() throws {
        let (survey, diagnostics) = QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire("phq-9.json"), fallbackIdentifier: "x")
        #expect(diagnostics.isEmpty)
        let items = try #require(pick(survey, "steps", 0, "items").flatMap { if case .array(let items) = $0 { items } else { nil } })
        #expect(items.count == 11)
        #expect(pick(items[0], "text") == .string("1. Little interest or pleasure in doing things"))
        #expect(pick(items[8], "fhir", "prefix") == .string("9."))
        #expect(pick(items[0], "answerFormat", "choices", 3, "fhir", "extension") == fhirJSON(#"""
            [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 3}]
            """#))
        #expect(pick(items[9], "readOnly") == .bool(true))
        #expect(pick(items[9], "calculatedExpression") != nil)
        #expect(pick(items[10], "visibleIf") == fhirJSON(#"{"result": "44249-1.44261-6", "compare": ">", "value": 0}"#))
        #expect(pick(survey, "variables", 10, "name") == .string("score9"))
    }

    @Test func bmiIsCalculatedFromTwoVariables() throws {
        let (survey, diagnostics) = QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire("height-weight-bmi.json"), fallbackIdentifier: "x")
        #expect(diagnostics.isEmpty)
        #expect(pick(survey, "variables", 1, "name") == .string("weight"))
        #expect(pick(survey, "steps", 0, "answerFormat") == fhirJSON(#"{"type": "numeric", "style": "decimal", "minimum": 30, "maximum": 250, "unit": "cm"}"#))
        #expect(pick(survey, "steps", 2, "answerFormat") == fhirJSON(#"{"type": "numeric", "style": "decimal", "maximumFractionDigits": 1, "unit": "kg/m2"}"#))
        #expect(pick(survey, "steps", 2, "calculatedExpression") == .string("(%weight / ((%height / 100) * (%height / 100))).round(1)"))
    }

    @Test func nestedGroupsFormWarnsOnlyAboutItsIgnoredExtension() throws {
        let (survey, diagnostics) = QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire("nested-groups.json"), fallbackIdentifier: "x")
        #expect(diagnostics.map(\.path.description) == ["$.item[1].item[0].extension[0]"])
        #expect(diagnostics.first?.message.contains("ignored extension http://hl7.org/fhir/StructureDefinition/questionnaire-choiceOrientation") == true)
        #expect(pick(survey, "steps", 1, "items", 4, "sectionTitle") == .string("Severe reactions"))
        #expect(pick(survey, "steps", 1, "items", 4, "visibleIf") == nil)
        #expect(pick(survey, "steps", 1, "items", 5, "fhir", "within") == fhirJSON(#"["allergies", "severe"]"#))
        #expect(pick(survey, "steps", 1, "items", 5, "visibleIf") == fhirJSON(#"{"result": "about-you.has-allergies", "compare": "=", "value": true}"#))
    }
}
