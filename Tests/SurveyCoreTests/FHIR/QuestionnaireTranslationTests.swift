import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// FHIR's translation extension: a Questionnaire written in English and Spanish becomes a
/// survey in both, and its response keeps the codes, in the Questionnaire's own language.
struct QuestionnaireTranslationTests {
    static func imported() throws -> (survey: JSONValue?, diagnostics: [Diagnostic]) {
        QuestionnaireImport.survey(from: try FHIRFixtures.questionnaire("bilingual-intake.json"), fallbackIdentifier: "x")
    }

    @Test("Texts, prefixes, titles, option displays and designations come in every language")
    func everyText() throws {
        let (survey, diagnostics) = try Self.imported()
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        #expect(pick(survey, "languages") == fhirJSON(#"["en", "es"]"#))
        #expect(pick(survey, "title") == fhirJSON(#"{"en": "Clinic intake", "es": "Admisión en la clínica"}"#))
        #expect(pick(survey, "steps", 0, "question") == fhirJSON(#"{"en": "1. Do you smoke?", "es": "1. ¿Fuma?"}"#),
                "a prefix without a translation is the same in both")
        #expect(pick(survey, "steps", 0, "text") == fhirJSON(#"{"en": "Count cigarettes, cigars and pipes.", "es": "Cuente cigarrillos, puros y pipas."}"#))
        #expect(pick(survey, "steps", 0, "answerFormat", "choices", 0, "text") == fhirJSON(#"{"en": "Former smoker", "es": "Exfumador"}"#))
        #expect(pick(survey, "steps", 0, "answerFormat", "choices", 0, "fhir", "display") == .string("Former smoker"),
                "the coding keeps the Questionnaire's own display")
        #expect(pick(survey, "steps", 1, "answerFormat", "choices", 0, "text") == fhirJSON(#"{"en": "Yes", "es": "Sí"}"#))
        #expect(pick(survey, "steps", 3, "answerFormat", "choices", 1, "text") == fhirJSON(#"{"en": "Unwell", "es": "Mal"}"#))
        #expect(pick(survey, "steps", 3, "answerFormat", "choices", 1, "value") == .string("Unwell"))
    }

    @Test("A pattern without entryFormat gets its message in each language the server speaks")
    func patternMessage() throws {
        let (survey, _) = try Self.imported()
        #expect(pick(survey, "steps", 2, "answerFormat", "invalidMessage") == fhirJSON("""
            {"en": "This answer is not in the form this question asks for; check it and enter it again.",
             "es": "Esta respuesta no tiene la forma que pide la pregunta; revísela y escríbala de nuevo."}
            """))
        let japanese = importItems(#"{"linkId": "zip", "type": "url", "text": "Site"}"#, root: #", "language": "ja""#)
        expectNoErrors(japanese)
        #expect(japanese.value("steps", 0, "answerFormat", "invalidMessage") == .string("Enter a web address, such as https://example.org."),
                "a language no catalog speaks falls back to English")
    }

    @Test("The survey loads and serves the Spanish words; without translations nothing changes")
    func loads() throws {
        let (survey, _) = try Self.imported()
        let json = try #require(survey)
        let task = try #require(SurveyLoader.diagnose(json).task)
        #expect(task.languages == ["en", "es"])
        let plain = importItems(#"{"linkId": "q", "type": "boolean", "text": "Well?"}"#)
        #expect(plain.value("languages") == nil)
        #expect(plain.value("steps", 0, "question") == .string("Well?"))
    }

    @Test("A translation without lang or content is reported where it is, and one in the base language is ignored")
    func malformed() {
        let outcome = importItems("""
        {"linkId": "q", "type": "boolean", "text": "Well?", "_text": {"extension": [
          {"url": "http://hl7.org/fhir/StructureDefinition/translation", "extension": [{"url": "lang", "valueCode": "fr"}]},
          {"url": "http://hl7.org/fhir/StructureDefinition/translation", "extension": [
            {"url": "lang", "valueCode": "en"}, {"url": "content", "valueString": "Other English"}]},
          {"url": "http://hl7.org/fhir/StructureDefinition/translation", "extension": [
            {"url": "lang", "valueCode": "de"}, {"url": "content", "valueString": "Gut?"}]}
        ]}}
        """)
        expectNoErrors(outcome)
        #expect(outcome.finding(.warning, at: "$.item[0]._text.extension[0]") != nil)
        #expect(outcome.value("languages") == fhirJSON(#"["en", "de"]"#))
        #expect(outcome.value("steps", 0, "question") == fhirJSON(#"{"en": "Well?", "de": "Gut?"}"#))
    }

    @Test("The response keeps codes and the Questionnaire's own words, whatever language the participant read")
    func responseKeepsCodes() throws {
        let (survey, _) = try Self.imported()
        let result = FHIRRunResult.run([
            FHIRRunResult.step("smoking", [FHIRRunResult.question("smoking", "choice", #""choiceAnswers": ["LA18978-9"]"#)]),
            FHIRRunResult.step("feeling", [FHIRRunResult.question("feeling", "choice", #""choiceAnswers": ["Unwell"]"#)], second: 3),
        ], identifier: "bilingual-intake")
        let response = QuestionnaireResponseExport.response(survey: try #require(survey), result: result, surveyVersion: nil)
        #expect(pick(response, "item", 0, "text") == .string("Do you smoke?"))
        #expect(pick(response, "item", 0, "answer", 0, "valueCoding") == fhirJSON(
            #"{"system": "http://loinc.org", "code": "LA18978-9", "display": "Never smoker"}"#))
        #expect(pick(response, "item", 1, "answer", 0, "valueString") == .string("Unwell"))
    }

    @Test("Exported again, the Questionnaire carries its translations, and imports to the same texts")
    func roundTrip() throws {
        let (survey, _) = try Self.imported()
        let imported = try #require(survey)
        let task = try #require(SurveyLoader.diagnose(imported).task)
        let (questionnaire, notes) = QuestionnaireExport.questionnaire(fromSurvey: task.json, surveyVersion: nil)
        #expect(notes.contains { $0.path.description == "$.languages" && $0.message.contains("translation extensions") })
        #expect(pick(questionnaire, "language") == .string("en"))
        #expect(pick(questionnaire, "_title", "extension", 0, "extension", 1, "valueString") == .string("Admisión en la clínica"))
        #expect(pick(questionnaire, "item", 0, "prefix") == .string("1."))
        #expect(pick(questionnaire, "item", 0, "_text", "extension", 0, "extension", 1, "valueString") == .string("¿Fuma?"),
                "the prefix is taken off the translation as from the text")
        #expect(pick(questionnaire, "item", 0, "answerOption", 0, "valueCoding", "_display", "extension", 0, "extension", 1, "valueString")
                == .string("Exfumador"))
        let (again, _) = QuestionnaireImport.survey(from: questionnaire, fallbackIdentifier: "x")
        #expect(pick(again, "languages") == pick(imported, "languages"))
        for path: [JSONStep] in [["title"], ["steps", 0, "question"], ["steps", 0, "answerFormat", "choices", 0, "text"],
                                 ["steps", 1, "answerFormat", "choices", 0, "text"], ["steps", 3, "question"]] {
            var left: JSONValue? = again
            var right: JSONValue? = imported
            for step in path {
                left = pick(left, step)
                right = pick(right, step)
            }
            #expect(left == right, "\(path)")
        }
    }
}
