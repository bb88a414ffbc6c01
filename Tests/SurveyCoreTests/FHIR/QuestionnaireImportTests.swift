import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The resource as a whole: what it takes to be a Questionnaire, and the task keys it gives.
@Suite struct QuestionnaireImportTests {
    @Test func recognisesAQuestionnaireByItsResourceType() {
        #expect(QuestionnaireImport.isQuestionnaire(fhirJSON(#"{"resourceType": "Questionnaire"}"#)))
        #expect(!QuestionnaireImport.isQuestionnaire(fhirJSON(#"{"resourceType": "QuestionnaireResponse"}"#)))
        #expect(!QuestionnaireImport.isQuestionnaire(fhirJSON(#"{"identifier": "survey", "steps": []}"#)))
        #expect(!QuestionnaireImport.isQuestionnaire(fhirJSON(#"["Questionnaire"]"#)))
    }

    @Test func anotherResourceIsAnError() {
        let outcome = importQuestionnaire(#"{"resourceType": "Patient", "id": "p"}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.resourceType")?.message.contains("\"Patient\"") == true)
    }

    @Test func aQuestionnaireWithoutItemsIsAnError() {
        let outcome = importQuestionnaire(#"{"resourceType": "Questionnaire", "status": "active"}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item") != nil)
    }

    @Test func identifierComesFromTheIdSanitized() {
        let item = #"{"linkId": "q", "text": "Q?", "type": "boolean"}"#
        let withId = importQuestionnaire(#"{"resourceType": "Questionnaire", "id": "_phq 9/v2", "item": [\#(item)]}"#)
        #expect(withId.value("identifier") == .string("phq-9-v2"))
        let withoutId = importQuestionnaire(#"{"resourceType": "Questionnaire", "item": [\#(item)]}"#, fallback: "-my file.json")
        #expect(withoutId.value("identifier") == .string("my-file.json"))
        let neither = importQuestionnaire(#"{"resourceType": "Questionnaire", "id": "%%", "item": [\#(item)]}"#, fallback: "__")
        #expect(neither.value("identifier") == .string("questionnaire"))
    }

    @Test func titleIsTheTitleElseTheName() {
        let item = #"{"linkId": "q", "text": "Q?", "type": "boolean"}"#
        let both = importQuestionnaire(#"{"resourceType": "Questionnaire", "name": "Name", "title": "Title & more", "item": [\#(item)]}"#)
        #expect(both.value("title") == .string("Title &amp; more"))
        let name = importQuestionnaire(#"{"resourceType": "Questionnaire", "name": "NameOnly", "item": [\#(item)]}"#)
        #expect(name.value("title") == .string("NameOnly"))
    }

    @Test func taskFHIRKeepsURLVersionNameStatusAndCode() {
        let outcome = importQuestionnaire(#"""
            {"resourceType": "Questionnaire", "id": "x", "url": "http://example.org/Q/x", "version": "3", "name": "X",
             "status": "active", "publisher": "Someone", "code": [{"system": "http://loinc.org", "code": "1-8"}],
             "item": [{"linkId": "q", "text": "Q?", "type": "boolean"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("fhir") == fhirJSON(#"""
            {"url": "http://example.org/Q/x", "version": "3", "name": "X", "status": "active",
             "code": [{"system": "http://loinc.org", "code": "1-8"}]}
            """#))
    }

    @Test func rootVariablesBecomeTaskVariables() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "integer"}"#, root: #"""
            , "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/variable",
               "valueExpression": {"name": "score", "language": "text/fhirpath", "expression": "%resource.item.answer.value"}},
              {"url": "http://hl7.org/fhir/StructureDefinition/variable",
               "valueExpression": {"name": "double", "language": "text/fhirpath", "expression": "%score * 2"}}]
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("variables") == fhirJSON(#"""
            [{"name": "score", "expression": "%resource.item.answer.value"}, {"name": "double", "expression": "%score * 2"}]
            """#))
    }

    @Test func aVariableInAnotherLanguageIsAnError() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "integer"}"#, root: #"""
            , "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/variable",
               "valueExpression": {"name": "pt", "language": "application/x-fhir-query", "expression": "Patient?_id={{%patient.id}}"}}]
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.extension[0].valueExpression.language") != nil)
    }

    @Test func identifiersComeFromLinkIdsAndAreUniqueAcrossTheSurvey() {
        let outcome = importItems(#"""
            {"linkId": "/44249-1/a b", "text": "A?", "type": "boolean"},
            {"linkId": "...", "text": "B?", "type": "boolean"},
            {"linkId": "g", "text": "G", "type": "group", "item": [
              {"linkId": "-44249-1-a-b", "text": "C?", "type": "boolean"},
              {"linkId": "44249-1 a b", "text": "D?", "type": "boolean"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "identifier") == .string("44249-1-a-b"))
        #expect(outcome.value("steps", 0, "fhir", "linkId") == .string("/44249-1/a b"))
        #expect(outcome.value("steps", 1, "identifier") == .string("item"))
        #expect(outcome.value("steps", 1, "fhir", "linkId") == .string("..."))
        #expect(outcome.value("steps", 2, "items", 0, "identifier") == .string("44249-1-a-b-2"))
        #expect(outcome.value("steps", 2, "items", 1, "identifier") == .string("44249-1-a-b-3"))
        #expect(outcome.value("steps", 2, "items", 1, "fhir", "linkId") == .string("44249-1 a b"))
    }

    @Test func aRepeatedLinkIdIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "A?", "type": "boolean"}, {"linkId": "q", "text": "B?", "type": "boolean"}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[1].linkId")?.message.contains("'q'") == true)
    }

    @Test func unknownResourceKeysAreIgnoredWithAWarning() {
        let outcome = importItems(#"{"linkId": "q", "text": "Q?", "type": "boolean"}"#, root: #", "colour": "blue""#)
        expectNoErrors(outcome)
        #expect(outcome.finding(.warning, at: "$.colour") != nil)
    }

    @Test("What the survey's checker finds in an imported Questionnaire is placed on the Questionnaire's item, with its linkId")
    func checkerFindingsNameTheQuestionnaire() {
        let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"
        let file = #"""
            {"resourceType": "Questionnaire", "id": "t", "status": "active", "item": [
              {"linkId": "intro", "text": "Hello", "type": "display"},
              {"linkId": "g", "text": "About you", "type": "group", "item": [
                {"linkId": "age", "text": "Age", "type": "integer"},
                {"linkId": "score", "text": "Score", "type": "decimal", "readOnly": true, "extension": [
                  {"url": "\#(sdc)sdc-questionnaire-calculatedExpression",
                   "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.resolve().count()"}}]}]},
              {"linkId": "more", "text": "More", "type": "boolean", "extension": [
                {"url": "\#(sdc)sdc-questionnaire-enableWhenExpression",
                 "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.trace('x').count() > 1"}}]}]}
            """#
        let (task, diagnostics) = SurveyLoader.diagnose(Data(file.utf8), name: "t")
        #expect(task == nil)
        let errors = diagnostics.filter(\.isError)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.path.description.hasPrefix("$.item[") }, "\(errors)")
        #expect(errors.contains { $0.path.description == "$.item[1].item[1].extension[0].valueExpression.expression"
                && $0.message.hasPrefix("The item 'score': ") }, "\(errors)")
        #expect(errors.contains { $0.path.description == "$.item[2].extension[0].valueExpression.expression"
                && $0.message.hasPrefix("The item 'more': ") }, "\(errors)")
    }
}
