import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

/// A FHIR Questionnaire in the surveys folder served as a survey, and a run's result as a
/// QuestionnaireResponse from every door: the browser's result, the API, the export and the webhook.
@Suite("FHIR over HTTP")
struct FHIRRouteTests {
    static var auth: HTTPFields { [.authorization: "Bearer \(ResearcherAPITests.token)"] }
    static let codes = ["LA6568-5", "LA6569-3", "LA6570-1", "LA6571-9"]
    static let items = ["44250-9", "44255-8", "44259-0", "44254-1", "44251-7", "44258-2", "44252-5", "44253-3", "44260-8"]

    /// A folder holding the PHQ-9 Questionnaire as it is, under a file name that is not its id.
    static func surveys() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-surveys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.path("Tests/SurveyCoreTests/Fixtures/fhir/phq-9.json"),
                                         toPath: folder.appendingPathComponent("loinc-44249-1.json").path)
        return folder
    }

    static func answerPHQ9(_ participant: inout Participant, scores: [Int]) async throws {
        try await participant.get("/surveys/phq-9")
        try await participant.submit("phq-9", zip(items, scores).map { ($0, codes[$1]) })
        #expect(participant.lastPage.contains("<output id=\"44261-6\" aria-labelledby=\"44261-6:label\">\(scores.reduce(0, +)) points</output>"),
                "the total shows read-only before its page is sent")
        try await participant.submit("phq-9", [("_action", "next")])
        if scores.reduce(0, +) > 0 { try await participant.submit("phq-9", [("69722-7", "LA6572-7")]) }
    }

    static func object(_ body: ByteBuffer) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(String(buffer: body)) else { throw TestFailure("not a JSON object") }
        return object
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The answers of a response's items, by linkId, at any depth.
    static func answers(_ value: JSONValue?) -> [String: [JSONValue]] {
        var found: [String: [JSONValue]] = [:]
        guard case .object(let object)? = value, case .array(let items)? = object["item"] else { return found }
        for case .object(let item) in items {
            if case .string(let linkId)? = item["linkId"], case .array(let answers)? = item["answer"] { found[linkId] = answers }
            found.merge(answers(.object(item)), uniquingKeysWith: { first, _ in first })
        }
        return found
    }

    @Test("A Questionnaire file is served by its id; result.json and the API give the run as a QuestionnaireResponse")
    func resultAndAPI() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await makeApplication(surveys: folder.path, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await Self.answerPHQ9(&participant, scores: [1, 2, 0, 3, 1, 1, 0, 2, 1])
            let result = try await participant.get("/surveys/phq-9/result.json?format=fhir")
            #expect(result.status == .ok)
            #expect(result.headers[.contentType] == "application/fhir+json; charset=utf-8")
            let response = try Self.object(result.body)
            #expect(response["resourceType"] == .string("QuestionnaireResponse"))
            #expect(response["status"] == .string("completed"))
            #expect(response["questionnaire"] == .string("http://loinc.org/q/44249-1"))
            let answers = Self.answers(.object(response))
            #expect(answers["44261-6"] == [.object(["valueInteger": .number(11)])])
            #expect(answers["44255-8"] == [.object(["valueCoding": .object([
                "system": .string("http://loinc.org"), "code": .string("LA6570-1"), "display": .string("More than half the days")])])])
            #expect(answers.count == 11)

            let plain = try await participant.get("/surveys/phq-9/result.json")
            #expect(try Self.object(plain.body)["identifier"] == .string("phq-9"), "without format, the result JSON as before")
            let unknown = try await participant.get("/surveys/phq-9/result.json?format=hl7v2")
            #expect(unknown.status == .badRequest)

            let list = try await client.execute(uri: "/api/v1/runs?survey=phq-9", method: .get, headers: Self.auth)
            guard case .array(let runs)? = try Self.object(list.body)["runs"], case .object(let first)? = runs.first,
                  case .string(let id)? = first["id"] else { throw TestFailure("no run listed") }
            let fhir = try await client.execute(uri: "/api/v1/runs/\(id)?format=fhir", method: .get, headers: Self.auth)
            #expect(fhir.headers[.contentType] == "application/fhir+json; charset=utf-8")
            let fromAPI = try Self.object(fhir.body)
            #expect(fromAPI["id"] == .string(id))
            #expect(Self.answers(.object(fromAPI)) == answers)
            let bad = try await client.execute(uri: "/api/v1/runs/\(id)?format=xml", method: .get, headers: Self.auth)
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains("\\\"format\\\" must be one of"))
        }
    }

    @Test("The export's Bundle holds one entry per run; a total of 0 leaves the difficulty item out")
    func exportBundle() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await makeApplication(surveys: folder.path, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            let empty = try await client.execute(uri: "/api/v1/surveys/phq-9/export?format=fhir", method: .get, headers: Self.auth)
            let none = try Self.object(empty.body)
            #expect(none["type"] == .string("collection") && none["entry"] == nil, "FHIR allows no empty array")
            var one = Participant(client)
            try await Self.answerPHQ9(&one, scores: [0, 0, 0, 0, 0, 0, 0, 0, 0])
            var two = Participant(client)
            try await Self.answerPHQ9(&two, scores: [3, 3, 3, 3, 3, 3, 3, 3, 3])
            let export = try await client.execute(uri: "/api/v1/surveys/phq-9/export?format=fhir", method: .get, headers: Self.auth)
            #expect(export.headers[.contentType] == "application/fhir+json; charset=utf-8")
            let bundle = try Self.object(export.body)
            #expect(bundle["resourceType"] == .string("Bundle"))
            guard case .array(let entries)? = bundle["entry"] else { throw TestFailure("no entries") }
            #expect(entries.count == 2)
            var totals: [JSONValue] = []
            for case .object(let entry) in entries {
                guard case .object(let resource)? = entry["resource"], case .string(let id)? = resource["id"] else { continue }
                #expect(entry["fullUrl"] == .string("urn:uuid:" + id))
                let answers = Self.answers(.object(resource))
                totals += answers["44261-6"] ?? []
                #expect((answers["69722-7"] == nil) == (answers["44261-6"] == [.object(["valueInteger": .number(0)])]))
            }
            #expect(Set(totals) == [.object(["valueInteger": .number(0)]), .object(["valueInteger": .number(27)])])
        }
    }

    @Test("With --webhook-format fhir a completion queues the QuestionnaireResponse itself")
    func webhookBody() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = MemoryRunStore()
        let app = try await makeApplication(surveys: folder.path, store: store, configure: { configuration in
            configuration.webhookURL = "http://127.0.0.1:9/hook"
            configuration.webhookSecret = Data(repeating: 1, count: 32)
            configuration.webhookFormat = .fhir
        })
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await Self.answerPHQ9(&participant, scores: [1, 1, 1, 1, 1, 1, 1, 1, 1])
        }
        let events = try await store.claimDueEvents(now: .distantFuture, lease: 1, limit: 10)
        #expect(events.count == 1)
        let payload = try Self.object(ByteBuffer(string: try #require(events.first).payload))
        #expect(payload["resourceType"] == .string("QuestionnaireResponse"))
        #expect(Self.answers(.object(payload))["44261-6"] == [.object(["valueInteger": .number(9)])])
    }
}
