import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import SurveyCore
import SurveyStorage
import SurveyTestSupport
import Testing
@testable import SurveyServer

/// A consent through the server: the copy made once at certification and kept with its hash,
/// and a withdrawal that marks the run and queues its webhook event.
@Suite("Consent routes")
struct ConsentRouteTests {
    static func surveys() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consent-surveys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.path("Examples/study-consent.json"),
                                         toPath: folder.appendingPathComponent("study-consent.json").path)
        return folder
    }

    /// Walks the consent to its end page and returns the run's record.
    static func sign(_ participant: inout Participant, store: MemoryRunStore) async throws -> RunRecord {
        try await participant.get("/surveys/study-consent")
        for _ in 0..<6 { try await participant.submit("study-consent", []) }
        try await participant.submit("study-consent", [("sharing", "true")])
        // The page's own hidden fields say Agree and certify, as a browser sends them.
        try await participant.submit("study-consent", [("consented", "true"), ("givenName", "Ana"), ("familyName", "Ruiz")])
        #expect(participant.lastPage.contains("I certify that this is correct"))
        try await participant.submit("study-consent", [("certified", "true")])
        let session = try #require(participant.sessionID)
        return try #require(try await store.lastFinishedRecord(session: session, survey: "study-consent"))
    }

    @Test("Certifying makes one copy, kept with its SHA-256; the end page and the API serve those bytes")
    func copyIsMadeOnce() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = MemoryRunStore()
        let app = try await makeApplication(surveys: folder.path, store: store)
        try await app.test(.router) { client in
            var participant = Participant(client)
            let record = try await Self.sign(&participant, store: store)
            #expect(record.run.finishReason == .completed)
            let copy = try #require(try await store.document(run: record.id, kind: .consent))
            #expect(record.run.consent?.copySHA256 == ConsentCopies.sha256(copy.bytes))
            #expect(copy.bytes.starts(with: Array("%PDF-".utf8)))
            let download = try await participant.get("/surveys/study-consent/consent.pdf")
            #expect(download.status == .ok && Array(download.body.readableBytesView) == copy.bytes)
            #expect(download.headers[.contentType] == "application/pdf")
            // Another browser has no copy to download.
            var stranger = Participant(client)
            try await stranger.get("/surveys/study-consent")
            #expect(try await stranger.get("/surveys/study-consent/consent.pdf").status == .notFound)
        }
    }

    @Test("A withdrawal with the end page's code marks the run, spends the code and queues run.withdrawn")
    func withdrawal() async throws {
        let folder = try Self.surveys()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = MemoryRunStore()
        let app = try await makeApplication(surveys: folder.path, store: store, configure: { configuration in
            configuration.webhookURL = "http://127.0.0.1:9/hook"
            configuration.webhookSecret = Data(repeating: 1, count: 32)
        })
        try await app.test(.router) { client in
            var participant = Participant(client)
            let record = try await Self.sign(&participant, store: store)
            let done = participant.lastPage
            let code = try #require(record.resume?.code)
            #expect(done.contains(String(code.prefix(4)) + " " + String(code.suffix(4))))
            _ = try await store.claimDueEvents(now: .distantFuture, lease: 1, limit: 10)
            var phone = Participant(client)
            try await phone.get("/withdraw")
            let response = try await phone.post("/withdraw", [("code", code.lowercased())])
            #expect(response.status == .ok && phone.lastPage.contains("You have withdrawn your consent"))
            let withdrawn = try #require(try await store.record(id: record.id))
            #expect(withdrawn.run.consent?.withdrawnAt != nil && withdrawn.resume == nil)
            let events = try await store.claimDueEvents(now: .distantFuture, lease: 1, limit: 10)
            #expect(events.count == 1)
            let event = try JSONParser.parse(try #require(events.first).payload)
            guard case .object(let object) = event else { Issue.record("not an object"); return }
            #expect(object["event"] == .string("run.withdrawn"))
            #expect(object["run"] == .string(record.id.uuidString.lowercased()))
            try await phone.get("/withdraw")
            #expect(try await phone.post("/withdraw", [("code", code)]).status == .unprocessableContent, "the code works once")
        }
    }
}
