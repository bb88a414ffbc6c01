import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyAnalysis
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

/// A store that stops writing on demand, as PostgreSQL does while its primary is lost.
final class FlakyStore: RunStore, @unchecked Sendable {
    let inner = MemoryRunStore()
    private let lock = NSLock()
    private var down = false

    func setDown(_ value: Bool) { lock.withLock { down = value } }

    private func check() throws {
        if lock.withLock({ down }) { throw RunStoreError.unavailable("the primary is gone") }
    }

    func migrate() async throws { try await inner.migrate() }
    func allocate(_ request: AllocationRequest, now: Date) async throws -> String { try check(); return await inner.allocate(request, now: now) }
    func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) async throws -> String? {
        try check()
        return await inner.claimQuotas(survey: survey, quotas: quotas, run: run)
    }
    func releaseQuotas(survey: String, quotas: [String], run: UUID) async throws { await inner.releaseQuotas(survey: survey, quotas: quotas, run: run) }
    func quotaCounts(survey: String) async throws -> [String: Int] { try check(); return await inner.quotaCounts(survey: survey) }
    func allocationCounts(survey: String) async throws -> [AllocationCount] { await inner.allocationCounts(survey: survey) }
    func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) async throws -> [UUID] {
        try check()
        return await inner.dashboardStaleRuns(survey: survey, changedSince: changedSince, limit: limit)
    }
    func records(ids: [UUID]) async throws -> [RunRecord] { try check(); return await inner.records(ids: ids) }
    func writeDashboardFacts(_ facts: [RunFacts], survey: String) async throws { try check(); await inner.writeDashboardFacts(facts, survey: survey) }
    func dashboardWatermark(survey: String) async throws -> Date? { try check(); return await inner.dashboardWatermark(survey: survey) }
    func setDashboardWatermark(survey: String, _ watermark: Date) async throws { try check(); await inner.setDashboardWatermark(survey: survey, watermark) }
    func dashboardTally(_ query: DashboardQuery) async throws -> DashboardTally { try check(); return await inner.dashboardTally(query) }
    func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) async throws -> [String: [Int: Int]] {
        try check()
        return await inner.dashboardHistograms(query, bins: bins)
    }
    func dashboardDiscardedRuns(survey: String) async throws -> [Date] { try check(); return await inner.dashboardDiscardedRuns(survey: survey) }
    func insert(_ record: RunRecord) async throws -> RunRecord { try check(); return try await inner.insert(record) }
    func update(_ record: RunRecord) async throws -> RunRecord { try check(); return try await inner.update(record) }
    func update(_ record: RunRecord, enqueuing payload: String) async throws -> RunRecord {
        try check()
        return try await inner.update(record, enqueuing: payload)
    }
    func record(id: UUID) async throws -> RunRecord? { try await inner.record(id: id) }
    func activeRecord(session: String, survey: String) async throws -> RunRecord? { try await inner.activeRecord(session: session, survey: survey) }
    func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord? {
        try await inner.lastFinishedRecord(session: session, survey: survey)
    }
    func delete(id: UUID, erasure: AuditEvent) async throws { try check(); try await inner.delete(id: id, erasure: erasure) }
    func record(resumeCode: String) async throws -> RunRecord? { try await inner.record(resumeCode: resumeCode) }
    func record(resumeToken: String) async throws -> RunRecord? { try await inner.record(resumeToken: resumeToken) }
    func records(matching query: RunQuery) async throws -> [RunRecord] { try check(); return try await inner.records(matching: query) }
    func deleteFinished(before date: Date, erasure: AuditEvent) async throws -> Int { try await inner.deleteFinished(before: date, erasure: erasure) }
    func deleteUnanswered(before date: Date, erasure: AuditEvent) async throws -> Int {
        try await inner.deleteUnanswered(before: date, erasure: erasure)
    }
    func appendAudit(_ events: [AuditEvent], chain: String) async throws { try check(); try await inner.appendAudit(events, chain: chain) }
    func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) async throws -> [AuditEntry] {
        try await inner.auditChainEntries(after: after, chain: chain, limit: limit)
    }
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] { try await inner.auditEntries(query) }
    func auditRecordedHeads() async throws -> [String: AuditHead] { try await inner.auditRecordedHeads() }
    func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) async throws -> AuditEntry? {
        try await inner.anchorAudit(everything: everything, now: now, by: actor)
    }
    func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        try await inner.claimDueEvents(now: now, lease: lease, limit: limit)
    }
    func eventDelivered(_ event: OutboxEvent) async throws { try await inner.eventDelivered(event) }
    func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) async throws {
        try await inner.eventFailed(event, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }
    func keepSurveyVersion(survey: String, version: String, definition: String) async throws {
        try await inner.keepSurveyVersion(survey: survey, version: version, definition: definition)
    }
    func surveyVersions(survey: String) async throws -> [SurveyVersionRecord] { try await inner.surveyVersions(survey: survey) }
    func revokeKioskDevice(_ revocation: KioskRevocation) async throws { try await inner.revokeKioskDevice(revocation) }
    func kioskRevocations(since: Date, now: Date) async throws -> [KioskRevocation] {
        try await inner.kioskRevocations(since: since, now: now)
    }
    func insertDocument(_ document: RunDocument) async throws { try await inner.insertDocument(document) }
    func document(run: UUID, kind: RunDocument.Kind) async throws -> RunDocument? { try await inner.document(run: run, kind: kind) }
}

@Suite("A store that cannot write")
struct StoreUnavailableTests {
    @Test("A page whose answers cannot be written comes back with a 503, Retry-After, a word to send again and the input kept; sent again, it is saved")
    func notSaved() async throws {
        let store = FlakyStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await participant.get("/surveys/wellbeing-check")
            try await participant.submit("wellbeing-check", [("_action", "next")])
            store.setDown(true)
            let refused = try await participant.submit("wellbeing-check", [("mood", "4")])
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "2")
            #expect(participant.lastPage.contains("We could not save that just now. Your answers are still here: press Next again."))
            #expect(participant.lastPage.contains(#"value="4" checked="checked""#), "the choice sent is still chosen")
            store.setDown(false)
            let saved = try await participant.submit("wellbeing-check", [("mood", "4")])
            #expect(saved.status == .ok, "the next step")
            let run = try #require(try await store.inner.records(matching: RunQuery()).first)
            #expect(run.run.visits.contains { $0.results.contains { $0.identifier == "mood" && $0.answer == .scale(4) } })
        }
    }

    @Test("A page that cannot be read from the store is a 503 with Retry-After and the request's reference, never a 500")
    func readRefused() async throws {
        let store = FlakyStore()
        let app = try await makeApplication(store: store, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            store.setDown(true)
            let response = try await client.execute(uri: "/api/v1/runs", method: .get,
                                                    headers: [.authorization: "Bearer \(ResearcherAPITests.token)"])
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "2")
            #expect(String(buffer: response.body).contains("We cannot reach our records just now."))
        }
    }
}
