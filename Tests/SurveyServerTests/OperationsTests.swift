import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("Operations")
struct OperationsTests {
    @Test("The health endpoint answers when the store does")
    func health() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains("\"ok\""))
        }
    }

    @Test("The server migrates a store opened without its schema before the first request")
    func migratesAtStart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-\(UUID()).sqlite").path
        let store = try SQLiteRunStore(path: path)
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let answered = try await browser.submit("fever-triage", [("_action", "next")])
            #expect(answered.status == .ok)
            #expect(try await store.records(matching: RunQuery()).count == 1)
        }
    }

    static let metricsToken = "metrics-token-0123456789"

    func metricsConfiguration(token: String? = metricsToken) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            surveysDirectory: Repository.path("Examples"), dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("m-\(UUID())").path,
            templatesDirectory: Repository.path("Templates"), publicDirectory: Repository.path("Public"), secret: Data(repeating: 1, count: 32))
        configuration.metricsToken = token
        configuration.apiToken = "api-token-0123456789"
        return configuration
    }

    @Test("Metrics count runs started (in a browser or by the API), completed and saved, validation errors and request latency")
    func metrics() async throws {
        let metrics = ServerMetrics()
        let app = try await buildApplication(configuration: metricsConfiguration(), store: MemoryRunStore(), metrics: metrics)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            try await browser.post("/surveys/fever-triage", [])
            try await browser.submit("fever-triage", [("fever", "false")])
            try await browser.submit("fever-triage", [("other-symptoms", "None")])
            var saver = Participant(client)
            try await saver.get("/surveys/wellbeing-check")
            try await saver.post("/surveys/wellbeing-check", [("_action", "save")])
            let created = try await client.execute(uri: "/api/v1/runs", method: .post,
                                                   headers: [.authorization: "Bearer api-token-0123456789", .contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"survey": "fever-triage"}"#))
            #expect(created.status == .created)
            let response = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.metricsToken)"])
            let text = String(buffer: response.body)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(text.contains("survey_runs_started_total 3"))
            #expect(text.contains("survey_runs_completed_total 1"))
            #expect(text.contains("survey_runs_saved_total 1"))
            #expect(text.contains("survey_validation_errors_total 1"))
            #expect(text.contains("survey_request_duration_seconds_count"))
        }
    }

    @Test("Metrics on the main port need the token, and are not there at all without one")
    func metricsGuarded() async throws {
        let guarded = try await buildApplication(configuration: metricsConfiguration(), store: MemoryRunStore())
        try await guarded.test(.router) { client in
            let none = try await client.execute(uri: "/metrics", method: .get)
            #expect(none.status == .unauthorized)
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer not-the-token-at-all"])
            #expect(wrong.status == .unauthorized)
            #expect(!String(buffer: wrong.body).contains("survey_"))
        }
        let open = try await buildApplication(configuration: metricsConfiguration(token: nil), store: MemoryRunStore())
        try await open.test(.router) { client in
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .notFound)
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test("Retention deletes finished runs older than the period and keeps the rest", arguments: RetentionCase.allCases)
    func retention(_ kind: RetentionCase) async throws {
        let store: any RunStore = kind == .memory ? MemoryRunStore()
            : try SQLiteRunStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("r-\(UUID()).sqlite").path)
        try await store.migrate()
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        func record(finished: Bool, at date: Date) -> RunRecord {
            var run = TaskRun(taskIdentifier: "t", taskRunUUID: UUID(), startDate: date, visits: [StepVisit(stepIdentifier: "a", startDate: date)])
            if finished { run.finishReason = .completed }
            return RunRecord(run: run, surveyIdentifier: "t", sessionID: "s", updatedAt: date)
        }
        _ = try await store.insert(record(finished: true, at: old))
        let openOld = try await store.insert(record(finished: false, at: old))
        let recent = try await store.insert(record(finished: true, at: old.addingTimeInterval(40 * 86_400)))
        let deleted = try await store.deleteFinished(before: old.addingTimeInterval(30 * 86_400), erasure: .erasure(reason: "test", by: .system("test"), at: Date()))
        #expect(deleted == 1)
        let left = Set(try await store.records(matching: RunQuery()).map(\.id))
        #expect(left == [openOld.id, recent.id])
    }

    enum RetentionCase: String, CaseIterable, CustomTestStringConvertible {
        case memory, sqlite
        var testDescription: String { rawValue }
    }
}
