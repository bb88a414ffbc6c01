import Foundation
import SurveyCore

/// A store in memory, for tests and previews.
public actor MemoryRunStore: RunStore {
    private(set) var records: [UUID: RunRecord] = [:]
    private var outbox: [UUID: OutboxEvent] = [:]
    private var versions: [String: [SurveyVersionRecord]] = [:]
    private var revocations: [String: KioskRevocation] = [:]
    private var documents: [String: RunDocument] = [:]
    var panel = MemoryPanel()
    var dashboard = MemoryDashboard()

    public init() {}

    public func insertDocument(_ document: RunDocument) throws {
        let key = document.runID.uuidString + document.kind.rawValue
        guard documents[key] == nil else { throw RunStoreError.duplicate }
        guard records[document.runID] != nil else { throw RunStoreError.conflict }
        documents[key] = document
    }

    public func document(run: UUID, kind: RunDocument.Kind) -> RunDocument? {
        records[run] == nil ? nil : documents[run.uuidString + kind.rawValue]
    }

    public func keepSurveyVersion(survey: String, version: String, definition: String) {
        guard versions[survey]?.contains(where: { $0.version == version }) != true else { return }
        versions[survey, default: []].append(SurveyVersionRecord(version: version, definition: definition, keptAt: Date()))
    }

    public func surveyVersions(survey: String) -> [SurveyVersionRecord] { versions[survey] ?? [] }

    public func revokeKioskDevice(_ revocation: KioskRevocation) {
        revocations = revocations.filter { $0.value.until >= revocation.revokedAt }
        if revocations[revocation.device] == nil { revocations[revocation.device] = revocation }
    }

    public func kioskRevocations(since: Date, now: Date) -> [KioskRevocation] {
        revocations.values.filter { $0.revokedAt >= since && $0.until > now }.sorted { $0.revokedAt < $1.revokedAt }
    }

    /// Nothing to create: the dictionaries are the schema.
    public func migrate() {}

    public func insert(_ record: RunRecord) throws -> RunRecord {
        guard records[record.id] == nil else { throw RunStoreError.duplicate }
        var stored = record
        stored.version = 1
        stored.audit = AuditTrail(head: append(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: .genesis))
        records[record.id] = stored
        return stored
    }

    public func update(_ record: RunRecord) throws -> RunRecord {
        guard let current = records[record.id], current.version == record.version else { throw RunStoreError.conflict }
        var stored = record
        stored.version = record.version + 1
        stored.audit = AuditTrail(head: append(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: current.audit.head))
        records[record.id] = stored
        return stored
    }

    // MARK: The audit log

    private(set) var auditLog: [String: [AuditEntry]] = [:]
    private var chainHeads: [String: AuditHead] = [:]
    private var lastID: Int64 = 0
    private var lastAnchoredID: Int64 = 0

    private func append(_ events: [AuditEvent], chain: String, after head: AuditHead) -> AuditHead {
        let (entries, head) = AuditEntry.seal(events, chain: chain, after: head)
        for var entry in entries {
            lastID += 1
            entry.id = lastID
            auditLog[chain, default: []].append(entry)
        }
        return head
    }

    private func erase(_ record: RunRecord, _ erasure: AuditEvent) {
        let chain = AuditEntry.chain(of: record.id)
        _ = append([erasure.erasing(run: record.id, survey: record.surveyIdentifier, began: record.run.startDate)], chain: chain,
                   after: record.audit.head)
        auditLog[chain] = auditLog[chain]?.map { entry in
            var erased = entry
            erased.content = nil
            erased.salt = nil
            return erased
        }
    }

    public func appendAudit(_ events: [AuditEvent], chain: String) {
        chainHeads[chain] = append(events, chain: chain, after: chainHeads[chain] ?? .genesis)
    }

    public func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) -> [AuditEntry] {
        let all = chain.map { auditLog[$0] ?? [] } ?? auditLog.keys.sorted().flatMap { auditLog[$0]! }
        return Array(all.filter { entry in after.map { (entry.chain, entry.seq) > ($0.chain, $0.seq) } ?? true }.prefix(limit))
    }

    public func auditEntries(_ query: AuditQuery) -> [AuditEntry] {
        Array(auditLog.values.joined().filter(query.matches).sorted { $0.id < $1.id }.prefix(query.limit))
    }

    public func auditRecordedHeads() -> [String: AuditHead] {
        var heads = chainHeads
        for record in records.values { heads[AuditEntry.chain(of: record.id)] = record.audit.head }
        return heads
    }

    public func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) -> AuditEntry? {
        let after = everything ? 0 : lastAnchoredID
        let heads = auditLog.filter { $0.key != AuditEntry.anchorChain && ($0.value.last?.id ?? 0) > after }
            .keys.sorted().compactMap { auditLog[$0]?.last }
        guard !heads.isEmpty else { return nil }
        let through = lastID
        appendAudit([AuditEvent.anchor(heads, through: through, by: actor, at: now)], chain: AuditEntry.anchorChain)
        lastAnchoredID = through
        return auditLog[AuditEntry.anchorChain]?.last
    }

    public func record(id: UUID) -> RunRecord? { records[id] }

    public func activeRecord(session: String, survey: String) -> RunRecord? {
        records.values.filter { $0.sessionID == session && $0.surveyIdentifier == survey && !$0.run.isFinished }
            .max { $0.updatedAt < $1.updatedAt }
    }

    public func lastFinishedRecord(session: String, survey: String) -> RunRecord? {
        records.values.filter { $0.sessionID == session && $0.surveyIdentifier == survey && $0.run.isFinished }
            .max { $0.updatedAt < $1.updatedAt }
    }

    public func delete(id: UUID, erasure: AuditEvent) {
        if let record = records[id] { erase(record, erasure) }
        records[id] = nil
    }

    public func record(resumeCode: String) -> RunRecord? {
        records.values.first { $0.resume?.code == resumeCode }
    }

    public func record(resumeToken: String) -> RunRecord? {
        records.values.first { $0.resume?.token == resumeToken }
    }

    public func update(_ record: RunRecord, enqueuing payload: String) throws -> RunRecord {
        let stored = try update(record)
        let event = OutboxEvent(id: UUID(), runID: record.id, payload: payload, nextAttemptAt: record.updatedAt)
        outbox[event.id] = event
        return stored
    }

    public func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) -> [OutboxEvent] {
        let due = outbox.values.filter { $0.nextAttemptAt <= now }.sorted { $0.nextAttemptAt < $1.nextAttemptAt }.prefix(limit)
        for event in due { outbox[event.id]?.nextAttemptAt = now.addingTimeInterval(lease) }
        return Array(due)
    }

    public func eventDelivered(_ event: OutboxEvent) {
        outbox[event.id] = nil
    }

    public func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) {
        outbox[event.id]?.attempts = attempts
        outbox[event.id]?.nextAttemptAt = nextAttemptAt
    }

    public func deleteFinished(before date: Date, erasure: AuditEvent) -> Int {
        let old = records.values.filter { $0.run.isFinished && $0.updatedAt < date }.map(\.id)
        for id in old { delete(id: id, erasure: erasure) }
        return old.count
    }

    public func deleteUnanswered(before date: Date, erasure: AuditEvent) -> Int {
        let old = records.values.filter { $0.isUnanswered && $0.updatedAt < date }.map(\.id)
        for id in old { delete(id: id, erasure: erasure) }
        return old.count
    }

    public func records(ids: [UUID]) -> [RunRecord] { ids.compactMap { records[$0] } }

    public func records(matching query: RunQuery) -> [RunRecord] {
        let matching = records.values.filter(query.matches)
        let ordered = query.afterID == nil ? matching.sorted { $0.updatedAt > $1.updatedAt }
            : matching.sorted { $0.id.uuidString.lowercased() < $1.id.uuidString.lowercased() }
        return Array(ordered.prefix(query.limit))
    }
}
