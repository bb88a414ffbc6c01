import Foundation
import SurveyAnalysis
import SurveyCore
import SurveyStorage

/// The preview's runs: a store in memory that keeps at most `limit` runs of each survey,
/// dropping the least recently changed when a new one comes in.
///
/// Every jump and every visit without a run makes a preview run, and nothing ends them, so a
/// store without a bound grows for as long as the preview runs. A count rather than an age:
/// it bounds the memory however fast runs are made, needs no timer, and a researcher who
/// loses a run that a hundred newer ones pushed out only starts a preview run again.
struct PreviewRunStore: RunStore {
    /// The runs each survey keeps.
    static let defaultLimit = 100

    let limit: Int
    private let runs = MemoryRunStore()

    init(limit: Int = Self.defaultLimit) {
        self.limit = limit
    }

    func insert(_ record: RunRecord) async throws -> RunRecord {
        let stored = try await runs.insert(record)
        // Most recently changed first: what is past the limit is the oldest.
        let kept = try await runs.records(matching: RunQuery(survey: record.surveyIdentifier, limit: limit + 16))
        for old in kept.dropFirst(limit) where old.id != stored.id {
            try await runs.delete(id: old.id, erasure: .erasure(reason: "previewLimit", by: .system("preview"), at: Date()))
        }
        return stored
    }

    func migrate() async throws { try await runs.migrate() }
    // A preview's arms and quota counts are its own, in memory: previewing moves no study's sequence.
    func allocate(_ request: AllocationRequest, now: Date) async throws -> String { await runs.allocate(request, now: now) }
    func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) async throws -> String? {
        await runs.claimQuotas(survey: survey, quotas: quotas, run: run)
    }
    func releaseQuotas(survey: String, quotas: [String], run: UUID) async throws { await runs.releaseQuotas(survey: survey, quotas: quotas, run: run) }
    func quotaCounts(survey: String) async throws -> [String: Int] { await runs.quotaCounts(survey: survey) }
    func allocationCounts(survey: String) async throws -> [AllocationCount] { await runs.allocationCounts(survey: survey) }
    // Preview runs have no dashboard; these pass to the memory store like the rest.
    func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) async throws -> [UUID] {
        await runs.dashboardStaleRuns(survey: survey, changedSince: changedSince, limit: limit)
    }
    func records(ids: [UUID]) async throws -> [RunRecord] { await runs.records(ids: ids) }
    func writeDashboardFacts(_ facts: [RunFacts], survey: String) async throws { await runs.writeDashboardFacts(facts, survey: survey) }
    func dashboardWatermark(survey: String) async throws -> Date? { await runs.dashboardWatermark(survey: survey) }
    func setDashboardWatermark(survey: String, _ watermark: Date) async throws { await runs.setDashboardWatermark(survey: survey, watermark) }
    func dashboardTally(_ query: DashboardQuery) async throws -> DashboardTally { await runs.dashboardTally(query) }
    func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) async throws -> [String: [Int: Int]] {
        await runs.dashboardHistograms(query, bins: bins)
    }
    func dashboardDiscardedRuns(survey: String) async throws -> [Date] { await runs.dashboardDiscardedRuns(survey: survey) }
    func update(_ record: RunRecord) async throws -> RunRecord { try await runs.update(record) }
    func record(id: UUID) async throws -> RunRecord? { try await runs.record(id: id) }
    func activeRecord(session: String, survey: String) async throws -> RunRecord? {
        try await runs.activeRecord(session: session, survey: survey)
    }
    func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord? {
        try await runs.lastFinishedRecord(session: session, survey: survey)
    }
    func delete(id: UUID, erasure: AuditEvent) async throws { try await runs.delete(id: id, erasure: erasure) }
    func record(resumeCode: String) async throws -> RunRecord? { try await runs.record(resumeCode: resumeCode) }
    func record(resumeToken: String) async throws -> RunRecord? { try await runs.record(resumeToken: resumeToken) }
    func records(matching query: RunQuery) async throws -> [RunRecord] { try await runs.records(matching: query) }
    func deleteFinished(before date: Date, erasure: AuditEvent) async throws -> Int {
        try await runs.deleteFinished(before: date, erasure: erasure)
    }
    func deleteUnanswered(before date: Date, erasure: AuditEvent) async throws -> Int {
        try await runs.deleteUnanswered(before: date, erasure: erasure)
    }
    func update(_ record: RunRecord, enqueuing payload: String) async throws -> RunRecord {
        try await runs.update(record, enqueuing: payload)
    }
    func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        try await runs.claimDueEvents(now: now, lease: lease, limit: limit)
    }
    func eventDelivered(_ event: OutboxEvent) async throws { try await runs.eventDelivered(event) }
    func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) async throws {
        try await runs.eventFailed(event, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }
    func keepSurveyVersion(survey: String, version: String, definition: String) async throws {
        try await runs.keepSurveyVersion(survey: survey, version: version, definition: definition)
    }
    func surveyVersions(survey: String) async throws -> [SurveyVersionRecord] { try await runs.surveyVersions(survey: survey) }
    func revokeKioskDevice(_ revocation: KioskRevocation) async throws { try await runs.revokeKioskDevice(revocation) }
    func insertDocument(_ document: RunDocument) async throws { try await runs.insertDocument(document) }
    func document(run: UUID, kind: RunDocument.Kind) async throws -> RunDocument? { try await runs.document(run: run, kind: kind) }
    func kioskRevocations(since: Date, now: Date) async throws -> [KioskRevocation] {
        try await runs.kioskRevocations(since: since, now: now)
    }
    func appendAudit(_ events: [AuditEvent], chain: String) async throws { try await runs.appendAudit(events, chain: chain) }
    func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) async throws -> [AuditEntry] {
        try await runs.auditChainEntries(after: after, chain: chain, limit: limit)
    }
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] { try await runs.auditEntries(query) }
    func auditRecordedHeads() async throws -> [String: AuditHead] { try await runs.auditRecordedHeads() }
    func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) async throws -> AuditEntry? {
        await runs.anchorAudit(everything: everything, now: now, by: actor)
    }
}
