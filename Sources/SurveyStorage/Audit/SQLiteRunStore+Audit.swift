import Foundation
import GRDB

/// The audit log in SQLite: `audit_log` (append-only, refused UPDATE and DELETE by triggers),
/// `audit_content` (what participants gave, by the entry's `id`; deleted when erased, never
/// changed) and `audit_chains` (the heads of the chains that are not a run's; a run's head is on
/// its row). Both tables are keyed by the order of writing, so a batch of answers appends to the
/// same last pages; only the index by (chain, seq) takes a page of its own per answer.
extension SQLiteRunStore {
    static func writeAudit(_ db: Database, _ entries: [AuditEntry]) throws {
        guard !entries.isEmpty else { return }
        let log = try db.cachedStatement(sql: """
            INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let content = try db.cachedStatement(sql: "INSERT INTO audit_content (id, chain, salt, body) VALUES (?, ?, ?, ?)")
        for entry in entries {
            try log.execute(arguments: [entry.chain, entry.seq, entry.atMillis, entry.actor, entry.action, entry.survey, entry.run,
                                        entry.detail, entry.contentHash, entry.previousHash, entry.hash])
            if let body = entry.content, let salt = entry.salt {
                try content.execute(arguments: [db.lastInsertedRowID, entry.chain, salt, body])
            }
        }
    }

    /// Closes a run's chain with its erasure and deletes the chain's content.
    static func erase(_ db: Database, run: UUID, survey: String, began: Date, head: AuditHead, erasure: AuditEvent) throws {
        let chain = AuditEntry.chain(of: run)
        try writeAudit(db, [AuditEntry.seal(erasure.erasing(run: run, survey: survey, began: began), chain: chain, after: head)])
        try db.cachedStatement(sql: "DELETE FROM audit_content WHERE id IN (SELECT id FROM audit_log WHERE chain = ?)").execute(arguments: [chain])
    }

    /// Appends to a chain whose head is in `audit_chains`, inside the writer.
    static func append(_ db: Database, _ events: [AuditEvent], chain: String) throws -> [AuditEntry] {
        let head = try Row.fetchOne(db, sql: "SELECT seq, head FROM audit_chains WHERE chain = ?", arguments: [chain])
            .map { AuditHead(seq: $0["seq"], hash: $0["head"]) } ?? .genesis
        let (entries, last) = AuditEntry.seal(events, chain: chain, after: head)
        try writeAudit(db, entries)
        try db.execute(sql: """
            INSERT INTO audit_chains (chain, seq, head) VALUES (?, ?, ?)
            ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, head = excluded.head
            """, arguments: [chain, last.seq, last.hash])
        return entries
    }

    public func appendAudit(_ events: [AuditEvent], chain: String) async throws {
        guard !events.isEmpty else { return }
        _ = try await committer.write { db in try Self.append(db, events, chain: chain).count }
    }

    static let auditColumns = """
        l.chain, l.seq, l.at_ms, l.actor, l.action, l.survey, l.run, l.detail, l.content_hash, l.previous_hash, l.hash, c.salt, c.body, l.id
        FROM audit_log l LEFT JOIN audit_content c ON c.id = l.id
        """

    static func entry(_ row: Row) -> AuditEntry {
        var entry = AuditEntry(chain: row[0], seq: row[1], atMillis: row[2], actor: row[3], action: row[4], survey: row[5], run: row[6],
                               detail: row[7], contentHash: row[8], previousHash: row[9], hash: row[10], content: row[12], salt: row[11])
        entry.id = row[13]
        return entry
    }

    public func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) async throws -> [AuditEntry] {
        var conditions = ["(l.chain, l.seq) > (?, ?)"]
        var arguments: StatementArguments = [after?.chain ?? "", after?.seq ?? 0]
        if let chain {
            conditions.append("l.chain = ?")
            _ = arguments.append(contentsOf: [chain])
        }
        _ = arguments.append(contentsOf: [limit])
        let sql = "SELECT \(Self.auditColumns) WHERE \(conditions.joined(separator: " AND ")) ORDER BY l.chain, l.seq LIMIT ?"
        let bound = arguments
        return try await pool.read { db in try Row.fetchAll(db, sql: sql, arguments: bound).map(Self.entry) }
    }

    public func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        var conditions = ["l.id > ?", "l.at_ms >= ?"]
        var arguments: StatementArguments = [query.afterID, query.sinceMillis]
        if let run = query.run {
            // A run's own chain by its name, and entries about it in other chains by the partial index.
            conditions.append("(l.chain = ? OR (l.run = ? AND l.run <> l.chain))")
            _ = arguments.append(contentsOf: [AuditEntry.chain(of: run), AuditEntry.chain(of: run)])
        }
        _ = arguments.append(contentsOf: [query.limit])
        let sql = "SELECT \(Self.auditColumns) WHERE \(conditions.joined(separator: " AND ")) ORDER BY l.id LIMIT ?"
        let bound = arguments
        return try await pool.read { db in try Row.fetchAll(db, sql: sql, arguments: bound).map(Self.entry) }
    }

    public func auditRecordedHeads() async throws -> [String: AuditHead] {
        try await pool.read { db in
            var heads: [String: AuditHead] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT lower(id), audit_seq, audit_head FROM runs WHERE audit_seq > 0 UNION ALL SELECT chain, seq, head FROM audit_chains
                """)
            while let row = try rows.next() { heads[row[0]] = AuditHead(seq: row[1], hash: row[2]) }
            return heads
        }
    }

    /// The heads are read in a read transaction, beside the writer, so answers do not wait on
    /// the scan; the anchor records the last entry it looked at, where the next one starts.
    public func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) async throws -> AuditEntry? {
        let (heads, through) = try await pool.read { db -> ([AuditEntry], Int64) in
            let last = try Row.fetchOne(db, sql: "SELECT \(Self.auditColumns) WHERE l.chain = ? ORDER BY l.seq DESC LIMIT 1",
                                        arguments: [AuditEntry.anchorChain]).map(Self.entry)
            let after = everything ? 0 : last?.anchoredThrough ?? 0
            let through = try Int64.fetchOne(db, sql: "SELECT max(id) FROM audit_log") ?? 0
            let heads = try Row.fetchAll(db, sql: """
                SELECT \(Self.auditColumns)
                JOIN (SELECT chain, max(seq) AS seq FROM audit_log WHERE id > ? AND id <= ? AND chain <> ? GROUP BY chain) m
                    ON m.chain = l.chain AND m.seq = l.seq
                ORDER BY l.chain
                """, arguments: [after, through, AuditEntry.anchorChain]).map(Self.entry)
            return (heads, through)
        }
        guard !heads.isEmpty else { return nil }
        return try await committer.write { db in
            try Self.append(db, [.anchor(heads, through: through, by: actor, at: now)], chain: AuditEntry.anchorChain).last
        }
    }
}
