import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

/// What the audit log records of participants, researchers and staff through the server, and
/// how it is read: the API's JSON Lines, a run's history page, and the staff's form for it.
@Suite("The audit log through the server")
struct AuditRouteTests {
    static let token = "audit-token-0123456789"
    static let labToken = "lab-token-abcdefghijklmnop"

    static func lines(_ response: TestResponse) throws -> [JSONObject] {
        try String(buffer: response.body).split(separator: "\n").map {
            guard case .object(let object) = try JSONParser.parse(String($0)) else { throw ResearcherAPITests.NotAnObject() }
            return object
        }
    }

    /// A participant answers, goes back and changes the answer; returns the run's id.
    static func walkWithChange(_ client: any TestClientProtocol) async throws -> String {
        var browser = Participant(client)
        try await browser.get("/surveys/wellbeing-check")
        try await browser.submit("wellbeing-check", [("_action", "next")])
        try await browser.submit("wellbeing-check", [("mood", "4")])
        try await browser.submit("wellbeing-check", [("_action", "back")])
        try await browser.submit("wellbeing-check", [("mood", "2")])
        let list = try await client.execute(uri: "/api/v1/runs?survey=wellbeing-check", method: .get,
                                            headers: [.authorization: "Bearer \(labToken)"])
        guard case .array(let runs)? = try ResearcherAPITests.json(list)["runs"], case .object(let run)? = runs.first,
              case .string(let id)? = run["id"] else { throw ResearcherAPITests.NotAnObject() }
        return id
    }

    static func application(store: any RunStore = MemoryRunStore()) async throws -> some ApplicationProtocol {
        try await makeApplication(store: store, apiToken: token) { $0.namedAPITokens = ["lab": labToken] }
    }

    @Test("A changed answer keeps its value before and after, each action names its actor, and the log verifies")
    func changedAnswer() async throws {
        let store = MemoryRunStore()
        let app = try await Self.application(store: store)
        try await app.test(.router) { client in
            let id = try await Self.walkWithChange(client)
            let response = try await client.execute(uri: "/api/v1/audit?run=\(id)", method: .get, headers: [.authorization: "Bearer \(Self.token)"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/jsonl; charset=utf-8")
            let entries = try Self.lines(response).filter { $0["chain"] == .string(id) }
            let actions = entries.compactMap { entry -> String? in if case .string(let action)? = entry["action"] { return action } else { return nil } }
            #expect(actions == ["run.created", "answer.saved", "answer.saved", "step.back", "answer.changed"])
            let changed = try #require(entries.last)
            guard case .object(let content)? = changed["content"], case .array(let before)? = content["before"],
                  case .array(let after)? = content["after"] else { Issue.record("no content"); return }
            // The results as the stores keep them: the answer as its case, dates as seconds.
            #expect(JSONWriter.string(.array(before), pretty: false).contains(#""answer":{"scale":{"_0":4}}"#))
            #expect(JSONWriter.string(.array(after), pretty: false).contains(#""answer":{"scale":{"_0":2}}"#))
            guard case .string(let actor)? = changed["actor"] else { Issue.record("no actor"); return }
            #expect(actor.hasPrefix("participant:") && actor.count == "participant:".count + 16)
            let all = try Self.lines(try await client.execute(uri: "/api/v1/audit", method: .get, headers: [.authorization: "Bearer \(Self.token)"]))
            #expect(all.contains { $0["action"] == .string("runs.listed") && $0["actor"] == .string("token:lab") })
            #expect(all.contains { $0["action"] == .string("audit.read") && $0["actor"] == .string("token:default") })
        }
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("A run's history: as a page through the API, and through the staff's form with a token")
    func historyPages() async throws {
        let store = MemoryRunStore()
        let app = try await Self.application(store: store)
        try await app.test(.router) { client in
            let id = try await Self.walkWithChange(client)
            let page = try await client.execute(uri: "/api/v1/runs/\(id)/history", method: .get, headers: [.authorization: "Bearer \(Self.token)"])
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains("answer.changed") && text.contains("mood = 4") && text.contains("mood = 2"))
            var staff = Participant(client)
            try await staff.get("/staff/history")
            #expect(staff.lastPage.contains("type=\"password\""))
            let wrong = try await staff.post("/staff/history", [("run", id), ("token", "not-a-token-at-all-0000")])
            #expect(wrong.status == .unprocessableContent)
            #expect(staff.lastPage.contains("token:error") && staff.lastPage.contains("value=\"\(id)\""))
            let right = try await staff.post("/staff/history", [("run", id), ("token", Self.labToken)])
            #expect(right.status == .ok)
            #expect(staff.lastPage.contains("History of run \(id)") && staff.lastPage.contains("mood = 2"))
            #expect(right.headers[.cacheControl]?.contains("no-store") == true)
            var stranger = Participant(client)
            let forged = try await stranger.post("/staff/history", [("run", id), ("token", Self.labToken), ("_csrf", "x")])
            #expect(forged.status == .forbidden)
        }
        let access = await store.auditChainEntries(after: nil, chain: AuditEntry.accessChain, limit: 100).map { "\($0.action) \($0.actor)" }
        #expect(access.contains("history.tokenRefused system:staff"))
        #expect(access.contains("history.read token:lab"))
        #expect(access.contains("history.read token:default"))
    }

    @Test("Deleting a run through the API erases its answers from the log, which still verifies")
    func deletionErases() async throws {
        let store = MemoryRunStore()
        let app = try await Self.application(store: store)
        try await app.test(.router) { client in
            let id = try await Self.walkWithChange(client)
            let bad = try await client.execute(uri: "/api/v1/runs/\(id)?reason=no%20way", method: .delete,
                                               headers: [.authorization: "Bearer \(Self.token)"])
            #expect(bad.status == .badRequest)
            let gone = try await client.execute(uri: "/api/v1/runs/\(id)?reason=withdrawn", method: .delete,
                                                headers: [.authorization: "Bearer \(Self.labToken)"])
            #expect(gone.status == .noContent)
        }
        let entries = await store.auditChainEntries(after: nil, chain: nil, limit: 1000).filter { UUID(uuidString: $0.chain) != nil }
        #expect(entries.last?.action == AuditEntry.erasedAction && entries.last?.actor == "token:lab")
        #expect(entries.allSatisfy { $0.content == nil })
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("An export through the API is recorded before its first byte, and again with its row count once whole")
    func exportsAreRecorded() async throws {
        let store = MemoryRunStore()
        let app = try await Self.application(store: store)
        try await app.test(.router) { client in
            _ = try await Self.walkWithChange(client)
            let export = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=csv&status=inProgress", method: .get,
                                                  headers: [.authorization: "Bearer \(Self.labToken)"])
            #expect(export.status == .ok)
        }
        let access = await store.auditChainEntries(after: nil, chain: AuditEntry.accessChain, limit: 100)
            .filter { $0.action.hasPrefix("export.") }
        #expect(access.map(\.action) == ["export.started", "export.made"])
        #expect(access.allSatisfy { $0.actor == "token:lab" && $0.survey == "wellbeing-check" && $0.detail.contains(#""status":"inProgress""#) })
        #expect(access.last?.detail.contains(#""rows":1"#) == true)
    }

    @Test("Named tokens: each name=token pair, names of letters, digits, '.', '_' and '-', each once")
    func namedTokens() {
        #expect(ServerConfiguration.namedTokens("lab=abcdefghijklmnop, monitor.2=0123456789abcdefg") == [
            "lab": "abcdefghijklmnop", "monitor.2": "0123456789abcdefg",
        ])
        for bad in ["lab=short", "lab", "=abcdefghijklmnop", "la b=abcdefghijklmnop", "a=abcdefghijklmnop,a=abcdefghijklmnoq", ""] {
            #expect(ServerConfiguration.namedTokens(bad) == nil, "\(bad)")
        }
    }

    @Test("Refusals are recorded up to sixty a minute; the next one recorded counts those left out")
    func refusalBudget() {
        let budget = RefusalBudget()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for second in 0..<RefusalBudget.perMinute { #expect(budget.take(now: start.addingTimeInterval(Double(second) / 2)) == 0) }
        #expect(budget.take(now: start.addingTimeInterval(40)) == nil)
        #expect(budget.take(now: start.addingTimeInterval(59)) == nil)
        #expect(budget.take(now: start.addingTimeInterval(60)) == 2)
        #expect(budget.take(now: start.addingTimeInterval(61)) == 0)
    }
}
