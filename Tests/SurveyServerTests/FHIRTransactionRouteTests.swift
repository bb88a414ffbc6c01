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

/// A run an EHR starts for a patient and an encounter, and its answers sent back as a FHIR
/// transaction: the QuestionnaireResponse and PHQ-9's total as an Observation, from the API,
/// the export and the webhook.
@Suite("FHIR transactions over HTTP")
struct FHIRTransactionRouteTests {
    static var auth: HTTPFields { FHIRRouteTests.auth }
    static let total = "44261-6"

    /// A folder holding Examples/phq-9.json, whose total asks to be extracted.
    static func surveys() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-transaction-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.path("Examples/phq-9.json"), toPath: folder.appendingPathComponent("phq-9.json").path)
        return folder
    }

    /// Starts a run through the API for Patient/p-1 in Encounter/e-9, and answers it from its start link.
    static func answeredRun(_ client: some TestClientProtocol, scores: [Int]) async throws -> String {
        let created = try await client.execute(
            uri: "/api/v1/runs", method: .post, headers: auth,
            body: ByteBuffer(string: #"{"survey": "phq-9", "subject": "Patient/p-1", "encounter": {"reference": "Encounter/e-9", "display": "Clinic visit"}}"#))
        #expect(created.status == .created)
        let body = try FHIRRouteTests.object(created.body)
        #expect(body["subject"] == .object(JSONObject([("reference", .string("Patient/p-1"))])), "the summary shows the subject")
        guard case .string(let id)? = body["id"], case .string(let link)? = body["startLink"] else { throw FHIRRouteTests.TestFailure("no run") }
        var participant = Participant(client)
        let path = String(link[link.range(of: "/start/")!.lowerBound...])
        try await participant.get(path)
        let start = try await participant.post(path, [])
        #expect(start.status == .seeOther)
        try await FHIRRouteTests.answerPHQ9(&participant, scores: scores)
        return id
    }

    /// The Bundle's entries by resource type.
    static func entries(_ bundle: JSONObject) -> [String: [JSONValue]] {
        guard case .array(let entries)? = bundle["entry"] else { return [:] }
        var byType: [String: [JSONValue]] = [:]
        for entry in entries {
            guard case .string(let type)? = pick(entry, "resource", "resourceType") else { continue }
            byType[type, default: []].append(entry)
        }
        return byType
    }

    @Test("The API gives a completed run as a transaction: the response and the total, both about the patient and the visit")
    func fromTheAPI() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await makeApplication(surveys: folder.path, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            let id = try await Self.answeredRun(client, scores: [1, 2, 0, 3, 1, 1, 0, 2, 1])
            let read = try await client.execute(uri: "/api/v1/runs/\(id)?format=fhir-transaction", method: .get, headers: Self.auth)
            #expect(read.status == .ok)
            #expect(read.headers[.contentType] == "application/fhir+json; charset=utf-8")
            let bundle = try FHIRRouteTests.object(read.body)
            #expect(bundle["resourceType"] == .string("Bundle") && bundle["type"] == .string("transaction"))
            let byType = Self.entries(bundle)
            let response = try #require(byType["QuestionnaireResponse"]?.first)
            let observations = byType["Observation"] ?? []
            #expect(observations.count == 1, "only the total asks to be extracted")
            #expect(pick(response, "resource", "id") == .string(id))
            #expect(pick(response, "resource", "subject", "reference") == .string("Patient/p-1"))
            #expect(pick(response, "resource", "encounter", "display") == .string("Clinic visit"))
            let observation = try #require(observations.first)
            #expect(pick(observation, "resource", "code", "coding", 0, "code") == .string(Self.total))
            #expect(pick(observation, "resource", "valueQuantity", "value") == .number(11))
            #expect(pick(observation, "resource", "valueQuantity", "code") == .string("{score}"))
            #expect(pick(observation, "resource", "subject", "reference") == .string("Patient/p-1"))
            #expect(pick(observation, "resource", "encounter", "reference") == .string("Encounter/e-9"))
            #expect(pick(observation, "resource", "derivedFrom", 0, "reference") == pick(response, "fullUrl"))

            let plain = try FHIRRouteTests.object(
                try await client.execute(uri: "/api/v1/runs/\(id)?format=fhir", method: .get, headers: Self.auth).body)
            #expect(.object(plain) == pick(response, "resource"), "the transaction's response is the response the API gives alone")

            let export = try await client.execute(uri: "/api/v1/surveys/phq-9/export?format=fhir-transaction", method: .get, headers: Self.auth)
            #expect(export.status == .ok)
            let exported = try FHIRRouteTests.object(export.body)
            #expect(exported["type"] == .string("transaction"))
            #expect(exported["entry"] == bundle["entry"], "the export holds the same entries for its one run")
        }
    }

    @Test("With --webhook-format fhir-transaction a completion queues the transaction Bundle")
    func webhook() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = MemoryRunStore()
        let app = try await makeApplication(surveys: folder.path, store: store, apiToken: ResearcherAPITests.token, configure: { configuration in
            configuration.webhookURL = "http://127.0.0.1:9/hook"
            configuration.webhookSecret = Data(repeating: 1, count: 32)
            configuration.webhookFormat = .fhirTransaction
        })
        try await app.test(.router) { client in
            _ = try await Self.answeredRun(client, scores: [3, 3, 3, 3, 3, 3, 3, 3, 3])
        }
        let events = try await store.claimDueEvents(now: .distantFuture, lease: 1, limit: 10)
        #expect(events.count == 1)
        let payload = try FHIRRouteTests.object(ByteBuffer(string: try #require(events.first).payload))
        #expect(payload["type"] == .string("transaction"))
        let observation = try #require(Self.entries(payload)["Observation"]?.first)
        #expect(pick(observation, "resource", "valueQuantity", "value") == .number(27))
        #expect(pick(observation, "resource", "subject", "reference") == .string("Patient/p-1"))
    }
}
