import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

@Suite("The researcher API")
struct ResearcherAPITests {
    static let token = "test-token-0123456789"
    static var auth: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }

    struct NotAnObject: Error {}

    static func json(_ response: TestResponse) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(String(buffer: response.body)) else { throw NotAnObject() }
        return object
    }

    @Test("The API refuses a missing or wrong token, and is off without one")
    func tokenIsRequired() async throws {
        let app = try await makeApplication(apiToken: Self.token)
        try await app.test(.router) { client in
            let missing = try await client.execute(uri: "/api/v1/runs", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            let wrong = try await client.execute(uri: "/api/v1/runs", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/api/v1/runs", method: .get, headers: Self.auth)
            #expect(right.status == .ok)
        }
        let closed = try await makeApplication()
        try await closed.test(.router) { client in
            let response = try await client.execute(uri: "/api/v1/runs", method: .get, headers: Self.auth)
            #expect(response.status == .serviceUnavailable)
        }
    }

    @Test("A run made through the API starts from its link, reports its status and result, and sends the participant back")
    func createWalkRead() async throws {
        let app = try await makeApplication(apiToken: Self.token)
        try await app.test(.router) { client in
            let created = try await client.execute(
                uri: "/api/v1/runs", method: .post, headers: Self.auth,
                body: ByteBuffer(string: #"{"survey": "fever-triage", "participantId": "P-042", "returnURL": "https://study.example.org/back"}"#))
            #expect(created.status == .created)
            let body = try Self.json(created)
            guard case .string(let id)? = body["id"], case .string(let link)? = body["startLink"] else {
                Issue.record("no id or link")
                return
            }
            #expect(body["status"] == .string("inProgress"))
            #expect(body["participantId"] == .string("P-042"))
            #expect(link.contains("/start/"))
            var browser = Participant(client)
            // Opening the link shows a page and spends nothing (a mail scanner may open it first).
            let page = try await browser.get(String(link[link.range(of: "/start/")!.lowerBound...]))
            #expect(page.status == .ok)
            #expect(browser.lastPage.contains("<form method=\"post\" action=\"/start/"))
            let start = try await browser.post(String(link[link.range(of: "/start/")!.lowerBound...]), [])
            #expect(start.status == .seeOther)
            try await browser.get("/surveys/fever-triage")
            #expect(browser.heading == "Check your symptoms")
            try await browser.submit("fever-triage", [("_action", "next")])
            try await browser.submit("fever-triage", [("fever", "false")])
            let last = try await browser.post("/surveys/fever-triage", [("other-symptoms", "Tired")])
            // Through a page of ours: a redirect after a form post would meet the CSP's form-action.
            #expect(last.headers[.location] == "/surveys/fever-triage/return")
            try await browser.get("/surveys/fever-triage/return")
            #expect(browser.lastPage.contains("<meta http-equiv=\"refresh\" content=\"0; url=https://study.example.org/back\" />"))
            #expect(browser.lastPage.contains("href=\"https://study.example.org/back\""))
            let read = try await client.execute(uri: "/api/v1/runs/\(id)", method: .get, headers: Self.auth)
            let run = try Self.json(read)
            #expect(run["status"] == .string("completed"))
            guard case .object(let result)? = run["result"], case .array(let steps)? = result["results"] else {
                Issue.record("no result")
                return
            }
            #expect(result["finishReason"] == .string("completed"))
            #expect(steps.count == 4)
            let researchKit = try Self.json(try await client.execute(uri: "/api/v1/runs/\(id)?format=researchkit", method: .get, headers: Self.auth))
            guard case .object(let shaped)? = researchKit["result"] else {
                Issue.record("no ResearchKit result in \(researchKit)")
                return
            }
            #expect(shaped["_class"] == .string("ORKTaskResult"))
            // The start link is used up.
            var other = Participant(client)
            let again = try await other.claim(link)
            #expect(again.status == .notFound)
        }
    }

    @Test("Runs are listed by survey and status, and a deleted run is gone")
    func listAndDelete() async throws {
        let app = try await makeApplication(apiToken: Self.token)
        try await app.test(.router) { client in
            for survey in ["fever-triage", "fever-triage", "wellbeing-check"] {
                _ = try await client.execute(uri: "/api/v1/runs", method: .post, headers: Self.auth, body: ByteBuffer(string: "{\"survey\": \"\(survey)\"}"))
            }
            let all = try Self.json(try await client.execute(uri: "/api/v1/runs", method: .get, headers: Self.auth))
            guard case .array(let runs)? = all["runs"] else {
                Issue.record("no list of runs in \(all)")
                return
            }
            #expect(runs.count == 3)
            let fever = try Self.json(try await client.execute(uri: "/api/v1/runs?survey=fever-triage&status=inProgress", method: .get, headers: Self.auth))
            guard case .array(let feverRuns)? = fever["runs"], case .object(let first)? = feverRuns.first, case .string(let id)? = first["id"] else {
                Issue.record("no fever runs")
                return
            }
            #expect(feverRuns.count == 2)
            let none = try Self.json(try await client.execute(uri: "/api/v1/runs?status=completed", method: .get, headers: Self.auth))
            #expect(none["runs"] == .array([]))
            let deleted = try await client.execute(uri: "/api/v1/runs/\(id)", method: .delete, headers: Self.auth)
            #expect(deleted.status == .noContent)
            let gone = try await client.execute(uri: "/api/v1/runs/\(id)", method: .get, headers: Self.auth)
            #expect(gone.status == .notFound)
        }
    }

    @Test("Bad requests get a 4xx with a sentence", arguments: [
        (#"{"survey": "nope"}"#, HTTPResponse.Status.unprocessableContent),
        (#"{"survey": "fever-triage", "returnURL": "javascript:alert(1)"}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "colour": 1}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "subject": 17}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "subject": {"display": "no reference"}}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "encounter": {"reference": "Encounter/1", "colour": "red"}}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "subject": {"identifier": {"system": "urn:mrn"}}}"#, .unprocessableContent),
        (#"{"survey": "fever-triage", "subject": "Patient/\u0007"}"#, .unprocessableContent),
        ("not json", .badRequest),
    ])
    func badRequests(body: String, status: HTTPResponse.Status) async throws {
        let app = try await makeApplication(apiToken: Self.token)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/api/v1/runs", method: .post, headers: Self.auth, body: ByteBuffer(string: body))
            #expect(response.status == status)
            #expect(try Self.json(response)["error"] != nil)
        }
    }
}
