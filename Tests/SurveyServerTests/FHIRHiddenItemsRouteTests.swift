import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import SurveyTestSupport
import Testing

/// A Questionnaire's hidden items at the top level and a hidden group: the participant never
/// meets a page for them, and the QuestionnaireResponse carries their values.
@Suite("FHIR hidden items over HTTP")
struct FHIRHiddenItemsRouteTests {
    static let questionnaire = """
    { "resourceType": "Questionnaire", "id": "hidden-items", "status": "active", "item": [
      { "linkId": "site", "type": "string", "text": "Site", "initial": [{ "valueString": "clinic-a" }],
        "extension": [{ "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true }] },
      { "linkId": "age", "type": "integer", "text": "How old are you?" },
      { "linkId": "derived", "type": "group", "text": "Worked out",
        "extension": [{ "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true }],
        "item": [
          { "linkId": "months", "type": "integer", "text": "Age in months",
            "extension": [{ "url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
                            "valueExpression": { "language": "text/fhirpath",
                                                 "expression": "%resource.item.where(linkId = 'age').answer.value * 12" } }] }
        ] },
      { "linkId": "well", "type": "boolean", "text": "Are you well?" }
    ] }
    """

    @Test("The participant answers two pages; the response holds the hidden values too")
    func hiddenItems() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-hidden-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.questionnaire.utf8).write(to: folder.appendingPathComponent("hidden-items.json"))
        let app = try await makeApplication(surveys: folder.path)
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await participant.get("/surveys/hidden-items")
            #expect(participant.lastPage.contains("How old are you?"), "the first page is the first question shown")
            #expect(!participant.lastPage.contains("clinic-a"))
            try await participant.submit("hidden-items", [("age", "7")])
            #expect(participant.lastPage.contains("Are you well?"), "the hidden group is no page")
            #expect(!participant.lastPage.contains("Age in months"))
            try await participant.submit("hidden-items", [("well", "true")])
            let result = try await participant.get("/surveys/hidden-items/result.json?format=fhir")
            let answers = FHIRRouteTests.answers(.object(try FHIRRouteTests.object(result.body)))
            #expect(answers["site"] == [.object(["valueString": .string("clinic-a")])])
            #expect(answers["age"] == [.object(["valueInteger": .number(7)])])
            #expect(answers["months"] == [.object(["valueInteger": .number(84)])])
            #expect(answers["well"] == [.object(["valueBoolean": .bool(true)])])
        }
    }
}
