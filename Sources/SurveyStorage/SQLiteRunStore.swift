import Foundation
import GRDB
import SurveyCore

/// The embedded default store: one SQLite file in WAL mode with `synchronous=FULL`, so a
/// write that returns has reached the disk. The log is copied back into the file by a
/// `Checkpointer` of its own, not by the write that happens to pass its size.
///
/// A run is a row of `runs` (its header: everything but the visits) and one row of `visits`
/// per step visit, so an answer writes the visits it changed (usually the one answered and
/// the one it leads to), not the whole run. The file belongs to one server process, which
/// keeps its runs in progress in a `RecordCache`: a step page reads no database.
public final class SQLiteRunStore: RunStore {
    let pool: DatabasePool
    let committer: GroupCommitter
    let checkpointer: Checkpointer
    let cache: RecordCache
    /// Opens (creating if needed) the database file; `migrate()` then creates or updates its schema.
    /// - Parameter cachedVisits: how many step visits the cache of runs in progress may hold
    ///   (a visit takes a few hundred bytes).
    public init(path: String, cachedVisits: Int = 300_000) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Runs in progress are read from the cache, so few readers are needed (each keeps a page cache).
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pool = try DatabasePool(path: path, configuration: configuration)
        let checkpointer = try Checkpointer(path: path, writer: pool)
        self.checkpointer = checkpointer
        committer = GroupCommitter(pool: pool, committed: { checkpointer.committed() })
        cache = RecordCache(capacity: cachedVisits)
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    /// The run without its visits, which live in their own rows.
    static func header(_ run: TaskRun) throws -> Data {
        Data(try RunJSON.header(run))
    }

    /// The visits from `from` on, encoded (before the write, so the writer thread only binds bytes).
    static func encodeVisits(_ visits: VisitList, from: Int) throws -> [Data] {
        from < visits.count ? try visits[from...].map { Data(try RunJSON.visit($0)) } : []
    }

    /// Writes the encoded visits at from, from + 1, … and removes the rows past `count` of a
    /// run that got shorter.
    static func writeVisits(_ db: Database, id: String, encoded: [Data], from: Int, count: Int, previousCount: Int) throws {
        if count < previousCount {
            try db.cachedStatement(sql: "DELETE FROM visits WHERE run = ? AND idx >= ?").execute(arguments: [id, count])
        }
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO visits (run, idx, data) VALUES (?, ?, ?)")
        for (offset, data) in encoded.enumerated() {
            try statement.execute(arguments: [id, from + offset, data])
        }
    }

    private static func decode(_ row: Row, _ db: Database) throws -> RunRecord {
        let visits = try Data.fetchAll(db.cachedStatement(sql: "SELECT data FROM visits WHERE run = ? ORDER BY idx"),
                                       arguments: [row["id"] as String])
        return try decode(row, visits: visits)
    }

    /// Many runs with their visits read in one query, not one per run.
    private static func decodeAll(_ rows: [Row], _ db: Database) throws -> [RunRecord] {
        guard !rows.isEmpty else { return [] }
        let ids: [String] = rows.map { $0["id"] }
        var visits: [String: [Data]] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let cursor = try Row.fetchCursor(db, sql: "SELECT run, data FROM visits WHERE run IN (\(marks)) ORDER BY run, idx",
                                         arguments: StatementArguments(ids))
        while let row = try cursor.next() { visits[row["run"], default: []].append(row["data"]) }
        return try rows.map { try decode($0, visits: visits[$0["id"] as String] ?? []) }
    }

    private static func decode(_ row: Row, visits: [Data]) throws -> RunRecord {
        var run = try decoder.decode(TaskRun.self, from: row["state"] as Data)
        run.visits = VisitList(try visits.map { try decoder.decode(StepVisit.self, from: $0) })
        var resume: ResumeTicket?
        if let token: String = row["resume_token"], let expires: Double = row["resume_expires_at"] {
            resume = ResumeTicket(code: row["resume_code"], token: token, expiresAt: Date(timeIntervalSince1970: expires))
        }
        var record = RunRecord(run: run, surveyIdentifier: row["survey"], sessionID: row["session"], version: row["version"],
                               updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
                               savedAt: (row["saved_at"] as Double?).map(Date.init(timeIntervalSince1970:)), resume: resume,
                               externalID: row["external_id"], returnURL: row["return_url"], surveyVersion: row["survey_version"],
                               fhirContext: RunJSON.fhirContext(row["fhir_context"]))
        record.audit = AuditTrail(head: AuditHead(seq: row["audit_seq"], hash: row["audit_head"]))
        return record
    }

    private func fetchOne(sql: String, arguments: StatementArguments) async throws -> RunRecord? {
        let record = try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map { try Self.decode($0, db) }
        }
        if let record { cache.store(record) }
        return record
    }

    public func insert(_ record: RunRecord) async throws -> RunRecord {
        var stored = record
        stored.version = 1
        let state = try Self.header(record.run)
        let id = record.id.uuidString
        let encoded = try Self.encodeVisits(record.run.visits, from: 0)
        let count = record.run.visits.count
        let (entries, head) = AuditEntry.seal(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: .genesis, chainRun: record.id)
        stored.audit = AuditTrail(head: head)
        do {
            try await committer.write { db in
                try db.cachedStatement(
                    sql: """
                        INSERT INTO runs (id, survey, session, finished, finish_reason, version, started_at, updated_at, state,
                                          saved_at, resume_code, resume_token, resume_expires_at, external_id, return_url, unanswered,
                                          survey_version, fhir_context, audit_seq, audit_head)
                        VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [record.id.uuidString, record.surveyIdentifier, record.sessionID, record.run.isFinished,
                                record.run.finishReason?.rawValue, record.run.startDate.timeIntervalSince1970,
                                record.updatedAt.timeIntervalSince1970, state, record.savedAt?.timeIntervalSince1970,
                                record.resume?.code, record.resume?.token, record.resume?.expiresAt.timeIntervalSince1970,
                                record.externalID, record.returnURL, record.isUnanswered, record.surveyVersion,
                                RunJSON.text(record.fhirContext), head.seq, head.hash])
                try Self.writeVisits(db, id: id, encoded: encoded, from: 0, count: count, previousCount: 0)
                try Self.writeAudit(db, entries)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw RunStoreError.duplicate
        }
        cache.store(stored)
        return stored
    }

    public func update(_ record: RunRecord) async throws -> RunRecord {
        try await update(record, enqueuing: nil)
    }

    public func update(_ record: RunRecord, enqueuing payload: String) async throws -> RunRecord {
        try await update(record, enqueuing: Optional(payload))
    }

    private func update(_ record: RunRecord, enqueuing payload: String?) async throws -> RunRecord {
        let state = try Self.header(record.run)
        let id = record.id.uuidString
        let visits = record.run.visits
        // What the database holds at this version, when the cache has it: only the visits from
        // the first difference on are written. Otherwise every visit is.
        let held = cache.record(id: record.id).flatMap { $0.version == record.version ? $0 : nil }
        let stored = held?.run.visits
        let from = stored.map { visits.firstDifference(from: $0) } ?? 0
        let previousCount = stored?.count ?? Int.max
        let encoded = try Self.encodeVisits(visits, from: from)
        let count = visits.count
        // Most answers change only the time and the header: then the indexed columns are left
        // out of the statement, and SQLite leaves their indexes alone.
        let onlyHeader = held.map { Self.sameIndexedColumns($0, record) } ?? false
        // The chain follows the head read with the record at this version: a stale one fails the version check.
        let (entries, head) = AuditEntry.seal(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: record.audit.head, chainRun: record.id)
        let changed = try await committer.write { db -> Int in
            if onlyHeader {
                try db.cachedStatement(sql: """
                    UPDATE runs SET version = version + 1, updated_at = ?, state = ?, audit_seq = ?, audit_head = ? WHERE id = ? AND version = ?
                    """).execute(arguments: [record.updatedAt.timeIntervalSince1970, state, head.seq, head.hash, id, record.version])
            } else {
                try db.cachedStatement(
                    sql: """
                        UPDATE runs SET finished = ?, finish_reason = ?, version = version + 1, updated_at = ?, state = ?, session = ?,
                                        saved_at = ?, resume_code = ?, resume_token = ?, resume_expires_at = ?, unanswered = ?,
                                        audit_seq = ?, audit_head = ?
                        WHERE id = ? AND version = ?
                        """).execute(
                    arguments: [record.run.isFinished, record.run.finishReason?.rawValue, record.updatedAt.timeIntervalSince1970, state,
                                record.sessionID, record.savedAt?.timeIntervalSince1970, record.resume?.code, record.resume?.token,
                                record.resume?.expiresAt.timeIntervalSince1970, record.isUnanswered, head.seq, head.hash, id, record.version])
            }
            let changed = db.changesCount
            guard changed == 1 else { return changed }
            try Self.writeVisits(db, id: id, encoded: encoded, from: from, count: count, previousCount: previousCount)
            try Self.writeAudit(db, entries)
            if let payload {
                try db.cachedStatement(sql: "INSERT INTO outbox (id, run_id, payload, attempts, next_attempt_at) VALUES (?, ?, ?, 0, ?)")
                    .execute(arguments: [UUID().uuidString, id, payload, record.updatedAt.timeIntervalSince1970])
            }
            return changed
        }
        guard changed == 1 else {
            cache.forget(id: record.id)
            throw RunStoreError.conflict
        }
        var written = record
        written.version += 1
        written.audit = AuditTrail(head: head)
        cache.store(written)
        return written
    }

    /// True when an update leaves every column but the time, the version and the header as stored.
    private static func sameIndexedColumns(_ stored: RunRecord, _ record: RunRecord) -> Bool {
        stored.run.isFinished == record.run.isFinished && stored.run.finishReason == record.run.finishReason
            && stored.sessionID == record.sessionID && stored.savedAt == record.savedAt && stored.resume == record.resume
            && stored.isUnanswered == record.isUnanswered
    }

    public func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        try await committer.write { db -> [OutboxEvent] in
            let rows = try Row.fetchAll(db, sql: """
                UPDATE outbox SET next_attempt_at = ? WHERE id IN
                    (SELECT id FROM outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
                RETURNING id, run_id, payload, attempts
                """, arguments: [now.addingTimeInterval(lease).timeIntervalSince1970, now.timeIntervalSince1970, limit])
            return rows.compactMap { row in
                guard let id = UUID(uuidString: row["id"]), let run = UUID(uuidString: row["run_id"]) else { return nil }
                return OutboxEvent(id: id, runID: run, payload: row["payload"], attempts: row["attempts"], nextAttemptAt: now)
            }
        }
    }

    public func eventDelivered(_ event: OutboxEvent) async throws {
        try await committer.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [event.id.uuidString])
        }
    }

    public func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) async throws {
        try await committer.write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?",
                           arguments: [attempts, nextAttemptAt.timeIntervalSince1970, event.id.uuidString])
        }
    }

    public func record(id: UUID) async throws -> RunRecord? {
        if let held = cache.record(id: id) { return held }
        return try await fetchOne(sql: "SELECT * FROM runs WHERE id = ?", arguments: [id.uuidString])
    }

    public func activeRecord(session: String, survey: String) async throws -> RunRecord? {
        if let held = cache.active(session: session, survey: survey) { return held }
        return try await newest(session: session, survey: survey, finished: false)
    }

    public func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord? {
        try await newest(session: session, survey: survey, finished: true)
    }

    private func newest(session: String, survey: String, finished: Bool) async throws -> RunRecord? {
        try await fetchOne(sql: "SELECT * FROM runs WHERE session = ? AND survey = ? AND finished = ? ORDER BY updated_at DESC LIMIT 1",
                           arguments: [session, survey, finished])
    }

    public func record(resumeCode: String) async throws -> RunRecord? {
        try await fetchOne(sql: "SELECT * FROM runs WHERE resume_code = ?", arguments: [resumeCode])
    }

    public func record(resumeToken: String) async throws -> RunRecord? {
        try await fetchOne(sql: "SELECT * FROM runs WHERE resume_token = ?", arguments: [resumeToken])
    }

    public func records(matching query: RunQuery) async throws -> [RunRecord] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let survey = query.survey {
            conditions.append("survey = ?")
            _ = arguments.append(contentsOf: [survey])
        }
        if let status = query.status {
            conditions.append("(CASE WHEN finish_reason IS NOT NULL THEN finish_reason WHEN saved_at IS NULL THEN 'inProgress' ELSE 'saved' END) = ?")
            _ = arguments.append(contentsOf: [status])
        }
        if let since = query.updatedSince {
            conditions.append("updated_at >= ?")
            _ = arguments.append(contentsOf: [since.timeIntervalSince1970])
        }
        if let after = query.afterID {
            // Identifiers are stored upper case, which sorts as the lower-case text does.
            conditions.append("id > ?")
            _ = arguments.append(contentsOf: [after.uppercased()])
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        _ = arguments.append(contentsOf: [query.limit])
        let sql = "SELECT * FROM runs \(filter) ORDER BY \(query.afterID == nil ? "updated_at DESC" : "id") LIMIT ?"
        let bound = arguments
        return try await pool.read { db in
            try Self.decodeAll(try Row.fetchAll(db, sql: sql, arguments: bound), db)
        }
    }

    public func records(ids: [UUID]) async throws -> [RunRecord] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        return try await pool.read { db in
            try Self.decodeAll(try Row.fetchAll(db, sql: "SELECT * FROM runs WHERE id IN (\(marks))", arguments: StatementArguments(ids.map(\.uuidString))), db)
        }
    }

    public func keepSurveyVersion(survey: String, version: String, definition: String) async throws {
        try await committer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO survey_versions (survey, version, definition, kept_at) VALUES (?, ?, ?, ?)",
                           arguments: [survey, version, definition, Date().timeIntervalSince1970])
        }
    }

    public func surveyVersions(survey: String) async throws -> [SurveyVersionRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT version, definition, kept_at FROM survey_versions WHERE survey = ? ORDER BY kept_at, version",
                             arguments: [survey]).map {
                SurveyVersionRecord(version: $0["version"], definition: $0["definition"], keptAt: Date(timeIntervalSince1970: $0["kept_at"]))
            }
        }
    }

    public func revokeKioskDevice(_ revocation: KioskRevocation) async throws {
        try await committer.write { db in
            try db.execute(sql: "DELETE FROM kiosk_revocations WHERE until < ?", arguments: [revocation.revokedAt.timeIntervalSince1970])
            try db.execute(sql: "INSERT OR IGNORE INTO kiosk_revocations (device, revoked_at, until) VALUES (?, ?, ?)",
                           arguments: [revocation.device, revocation.revokedAt.timeIntervalSince1970, revocation.until.timeIntervalSince1970])
        }
    }

    public func kioskRevocations(since: Date, now: Date) async throws -> [KioskRevocation] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT device, revoked_at, until FROM kiosk_revocations WHERE revoked_at >= ? AND until > ? ORDER BY revoked_at",
                             arguments: [since.timeIntervalSince1970, now.timeIntervalSince1970]).map {
                KioskRevocation(device: $0["device"], revokedAt: Date(timeIntervalSince1970: $0["revoked_at"]),
                                until: Date(timeIntervalSince1970: $0["until"]))
            }
        }
    }

    public func deleteFinished(before date: Date, erasure: AuditEvent) async throws -> Int {
        try await deleteRuns(where: "finished = 1 AND updated_at < ?", [date.timeIntervalSince1970], erasure: erasure)
    }

    public func deleteUnanswered(before date: Date, erasure: AuditEvent) async throws -> Int {
        try await deleteRuns(where: "unanswered = 1 AND updated_at < ?", [date.timeIntervalSince1970], erasure: erasure)
    }

    public func delete(id: UUID, erasure: AuditEvent) async throws {
        _ = try await deleteRuns(where: "id = ?", [id.uuidString], erasure: erasure)
    }

    /// Deletes the runs a condition picks, each with its chain's erasure, in one transaction.
    private func deleteRuns(where condition: String, _ arguments: StatementArguments, erasure: AuditEvent) async throws -> Int {
        let deleted = try await committer.write { db -> [UUID] in
            let rows = try Row.fetchAll(db, sql: "SELECT id, survey, started_at, audit_seq, audit_head FROM runs WHERE \(condition)",
                                        arguments: arguments)
            var ids: [UUID] = []
            for row in rows {
                guard let id = UUID(uuidString: row["id"]) else { continue }
                try Self.erase(db, run: id, survey: row["survey"], began: Date(timeIntervalSince1970: row["started_at"]),
                               head: AuditHead(seq: row["audit_seq"], hash: row["audit_head"]), erasure: erasure)
                try db.cachedStatement(sql: "DELETE FROM runs WHERE id = ?").execute(arguments: [id.uuidString])
                ids.append(id)
            }
            return ids
        }
        for id in deleted { cache.forget(id: id) }
        return deleted.count
    }
}
extension SQLiteRunStore {
    /// The journal mode and synchronous level in force, for tests and diagnostics.
    func pragmas() async throws -> (journalMode: String, synchronous: Int) {
        try await pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }
}

extension SQLiteRunStore {
    public func insertDocument(_ document: RunDocument) async throws {
        do {
            try await committer.write { db in
                try db.execute(sql: "INSERT INTO documents (run, kind, bytes, digest, created_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [document.runID.uuidString, document.kind.rawValue, Data(document.bytes), document.sha256,
                                           document.createdAt.timeIntervalSince1970])
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A second copy of the same kind, or a run that is gone.
            if error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY { throw RunStoreError.conflict }
            throw RunStoreError.duplicate
        }
    }

    public func document(run: UUID, kind: RunDocument.Kind) async throws -> RunDocument? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT bytes, digest, created_at FROM documents WHERE run = ? AND kind = ?",
                             arguments: [run.uuidString, kind.rawValue]).map {
                RunDocument(runID: run, kind: kind, bytes: [UInt8]($0["bytes"] as Data), sha256: $0["digest"],
                            createdAt: Date(timeIntervalSince1970: $0["created_at"]))
            }
        }
    }
}
