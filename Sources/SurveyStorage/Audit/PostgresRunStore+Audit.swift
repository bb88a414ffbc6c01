import Foundation
import PostgresNIO

/// Entries as the columns PostgreSQL's `unnest` reads, so a write's entries go in one statement.
struct AuditRows {
    var chains: [String] = [], seqs: [Int] = [], times: [Int64] = [], actors: [String] = [], actions: [String] = []
    var surveys: [String] = [], runs: [String] = [], details: [String] = [], contentHashes: [String] = []
    var previousHashes: [String] = [], hashes: [String] = []
    var contentChains: [String] = [], contentSeqs: [Int] = [], salts: [String] = [], bodies: [String] = []

    init(_ entries: [AuditEntry]) {
        for entry in entries {
            chains.append(entry.chain)
            seqs.append(entry.seq)
            times.append(entry.atMillis)
            actors.append(entry.actor)
            actions.append(entry.action)
            surveys.append(entry.survey)
            runs.append(entry.run ?? "")
            details.append(entry.detail)
            contentHashes.append(entry.contentHash)
            previousHashes.append(entry.previousHash)
            hashes.append(entry.hash)
            if let body = entry.content, let salt = entry.salt {
                contentChains.append(entry.chain)
                contentSeqs.append(entry.seq)
                salts.append(salt)
                bodies.append(body)
            }
        }
    }
}

/// The audit log in PostgreSQL, as in SQLite (see `SQLiteRunStore+Audit`); the log is also
/// refused UPDATE, DELETE and TRUNCATE by the role's grants.
extension PostgresRunStore {
    /// Writes entries (after the statements that decide they happen, in the same transaction).
    func writeAudit(_ entries: [AuditEntry], on connection: PostgresConnection) async throws {
        guard !entries.isEmpty else { return }
        let audit = AuditRows(entries)
        try await connection.query("""
            WITH audited AS (
                INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
                SELECT chain, seq, at_ms, actor, action, survey, NULLIF(run, ''), detail, content_hash, previous_hash, hash
                FROM unnest(\(audit.chains)::TEXT[], \(audit.seqs)::INTEGER[], \(audit.times)::BIGINT[], \(audit.actors)::TEXT[],
                            \(audit.actions)::TEXT[], \(audit.surveys)::TEXT[], \(audit.runs)::TEXT[], \(audit.details)::TEXT[],
                            \(audit.contentHashes)::TEXT[], \(audit.previousHashes)::TEXT[], \(audit.hashes)::TEXT[])
                    AS entry(chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
                RETURNING id, chain, seq)
            INSERT INTO audit_content (id, chain, salt, body)
            SELECT audited.id, audited.chain, content.salt, content.body FROM audited
            JOIN unnest(\(audit.contentChains)::TEXT[], \(audit.contentSeqs)::INTEGER[], \(audit.salts)::TEXT[], \(audit.bodies)::TEXT[])
                AS content(chain, seq, salt, body) ON content.chain = audited.chain AND content.seq = audited.seq
            """, logger: logger)
    }

    /// Deletes the runs a condition picks, each closing its chain with `erasure` and losing its
    /// content, in one transaction.
    func deleteRuns(where condition: String, _ bindings: PostgresBindings, erasure: AuditEvent) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                WITH gone AS (DELETE FROM runs WHERE \(condition) RETURNING id, survey, started_at, resume_code, audit_seq, audit_head),
                uncoded AS (DELETE FROM resume_codes WHERE code IN (SELECT resume_code FROM gone WHERE resume_code IS NOT NULL)
                            AND run IN (SELECT id FROM gone))
                SELECT id, survey, started_at, audit_seq, audit_head FROM gone
                """, binds: bindings), logger: self.logger)
            var entries: [AuditEntry] = []
            for try await (id, survey, startedAt, seq, hash) in rows.decode((UUID, String, Double, Int, String).self) {
                let event = erasure.erasing(run: id, survey: survey, began: Date(timeIntervalSince1970: startedAt))
                entries.append(AuditEntry.seal(event, chain: AuditEntry.chain(of: id), after: AuditHead(seq: seq, hash: hash)))
            }
            guard !entries.isEmpty else { return 0 }
            try await connection.query("""
                DELETE FROM audit_content WHERE (id, chain) IN (SELECT id, chain FROM audit_log WHERE chain = ANY(\(entries.map(\.chain))::TEXT[]))
                """, logger: self.logger)
            try await self.writeAudit(entries, on: connection)
            return entries.count
        }
    }

    /// Appends to a chain whose head is in `audit_chains`; the head's row lock makes replicas take turns.
    func append(_ events: [AuditEvent], chain: String, on connection: PostgresConnection) async throws -> [AuditEntry] {
        let rows = try await connection.query("""
            INSERT INTO audit_chains (chain, seq, head) VALUES (\(chain), 0, \(AuditHead.genesis.hash))
            ON CONFLICT (chain) DO UPDATE SET chain = EXCLUDED.chain RETURNING seq, head
            """, logger: logger)
        var head = AuditHead.genesis
        for try await (seq, hash) in rows.decode((Int, String).self) { head = AuditHead(seq: seq, hash: hash) }
        let (entries, last) = AuditEntry.seal(events, chain: chain, after: head)
        try await writeAudit(entries, on: connection)
        try await connection.query("UPDATE audit_chains SET seq = \(last.seq), head = \(last.hash) WHERE chain = \(chain)", logger: logger)
        return entries
    }

    public func appendAudit(_ events: [AuditEvent], chain: String) async throws {
        guard !events.isEmpty else { return }
        _ = try await client.withTransaction(logger: logger) { connection in try await self.append(events, chain: chain, on: connection) }
    }

    private static let auditColumns = """
        l.chain, l.seq, l.at_ms, l.actor, l.action, l.survey, l.run, l.detail, l.content_hash, l.previous_hash, l.hash, c.salt, c.body, l.id
        FROM audit_log l LEFT JOIN audit_content c ON c.id = l.id AND c.chain = l.chain
        """

    private func entries(_ query: PostgresQuery, on connection: PostgresConnection? = nil) async throws -> [AuditEntry] {
        let rows: PostgresRowSequence
        if let connection {
            rows = try await connection.query(query, logger: logger)
        } else {
            rows = try await client.query(query, logger: logger)
        }
        var entries: [AuditEntry] = []
        for try await (chain, seq, at, actor, action, survey, run, detail, contentHash, previous, hash, salt, body, id)
            in rows.decode((String, Int, Int64, String, String, String, String?, String, String, String, String, String?, String?, Int64).self) {
            var entry = AuditEntry(chain: chain, seq: seq, atMillis: at, actor: actor, action: action, survey: survey, run: run,
                                   detail: detail, contentHash: contentHash, previousHash: previous, hash: hash, content: body, salt: salt)
            entry.id = id
            entries.append(entry)
        }
        return entries
    }

    public func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) async throws -> [AuditEntry] {
        try await entries("""
            SELECT \(unescaped: Self.auditColumns)
            WHERE (l.chain, l.seq) > (\(after?.chain ?? ""), \(after?.seq ?? 0)) AND (\(chain)::TEXT IS NULL OR l.chain = \(chain)::TEXT)
            ORDER BY l.chain, l.seq LIMIT \(limit)
            """)
    }

    public func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        let run = query.run.map(AuditEntry.chain(of:))
        // A run's own chain by its name, and entries about it in other chains by the partial index.
        return try await entries("""
            SELECT \(unescaped: Self.auditColumns)
            WHERE l.id > \(query.afterID) AND l.at_ms >= \(query.sinceMillis)
                AND (\(run)::TEXT IS NULL OR l.chain = \(run)::TEXT OR (l.run = \(run)::TEXT AND l.run <> l.chain))
            ORDER BY l.id LIMIT \(query.limit)
            """)
    }

    public func auditRecordedHeads() async throws -> [String: AuditHead] {
        let rows = try await client.query("""
            SELECT id::TEXT, audit_seq, audit_head FROM runs WHERE audit_seq > 0 UNION ALL SELECT chain, seq, head FROM audit_chains
            """, logger: logger)
        var heads: [String: AuditHead] = [:]
        for try await (chain, seq, hash) in rows.decode((String, Int, String).self) { heads[chain] = AuditHead(seq: seq, hash: hash) }
        return heads
    }

    /// Identifiers come from a sequence, taken when a row is written, not when it commits: an
    /// anchor looks back this many entries past the last one, so a transaction that committed
    /// late is still covered.
    static let anchorOverlap: Int64 = 10_000

    public func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) async throws -> AuditEntry? {
        try await client.withTransaction(logger: logger) { connection in
            var after: Int64 = 0
            if !everything {
                let last = try await self.entries("""
                    SELECT \(unescaped: Self.auditColumns) WHERE l.chain = \(AuditEntry.anchorChain) ORDER BY l.seq DESC LIMIT 1
                    """, on: connection).first
                after = max(0, (last?.anchoredThrough ?? 0) - Self.anchorOverlap)
            }
            var through: Int64 = 0
            for try await id in try await connection.query("SELECT coalesce(max(id), 0) FROM audit_log", logger: self.logger)
                .decode(Int64.self) { through = id }
            let heads = try await self.entries("""
                SELECT \(unescaped: Self.auditColumns)
                JOIN (SELECT chain, max(seq) AS seq FROM audit_log WHERE id > \(after) AND chain <> \(AuditEntry.anchorChain)
                      GROUP BY chain) m ON m.chain = l.chain AND m.seq = l.seq
                ORDER BY l.chain
                """, on: connection)
            guard !heads.isEmpty else { return nil }
            return try await self.append([.anchor(heads, through: through, by: actor, at: now)], chain: AuditEntry.anchorChain,
                                         on: connection).last
        }
    }

    /// The audit tables, their triggers and grants (migration 10).
    func createAuditLog(_ connection: PostgresConnection) async throws {
        // Rows are written in the order of `id` (a sequence); the key by (chain, seq) is the only
        // index an answer's entry takes a page of its own in. Content is kept by the entry's id.
        let statements = [
            """
            CREATE TABLE IF NOT EXISTS audit_log (
                id BIGSERIAL NOT NULL, chain TEXT COLLATE "C" NOT NULL, seq INTEGER NOT NULL, at_ms BIGINT NOT NULL, actor TEXT NOT NULL,
                action TEXT NOT NULL, survey TEXT NOT NULL, run TEXT, detail TEXT NOT NULL, content_hash TEXT NOT NULL,
                previous_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (chain, seq))\(partitioning("chain"))
            """,
            "CREATE INDEX IF NOT EXISTS audit_log_by_id ON audit_log (id)",
            "CREATE INDEX IF NOT EXISTS audit_log_by_run ON audit_log (run) WHERE run IS NOT NULL AND run <> chain",
            """
            CREATE TABLE IF NOT EXISTS audit_content (
                id BIGINT NOT NULL, chain TEXT COLLATE "C" NOT NULL, salt TEXT NOT NULL, body TEXT NOT NULL,
                PRIMARY KEY (id, chain))\(partitioning("chain"))
            """,
            "CREATE TABLE IF NOT EXISTS audit_chains (chain TEXT COLLATE \"C\" PRIMARY KEY, seq INTEGER NOT NULL, head TEXT NOT NULL)",
            """
            CREATE OR REPLACE FUNCTION audit_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501'; END $$
            """,
            "DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log",
            "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_refuse()",
            "DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log",
            "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse()",
            "DROP TRIGGER IF EXISTS audit_content_no_update ON audit_content",
            "CREATE TRIGGER audit_content_no_update BEFORE UPDATE ON audit_content FOR EACH ROW EXECUTE FUNCTION audit_refuse()",
            "ALTER TABLE runs ADD COLUMN IF NOT EXISTS audit_seq INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE runs ADD COLUMN IF NOT EXISTS audit_head TEXT NOT NULL DEFAULT '\(AuditHead.genesis.hash)'",
        ]
        for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
        for table in ["audit_log", "audit_content"] { try await createPartitions(of: table, connection) }
        // The role that writes the log may not change it; its partitions neither.
        var tables = ["audit_log"]
        if let partitions { tables += (0..<partitions).map { "audit_log_p\($0)" } }
        for table in tables {
            try await connection.query(PostgresQuery(unsafeSQL: "REVOKE UPDATE, DELETE, TRUNCATE ON \(table) FROM PUBLIC, CURRENT_USER"),
                                       logger: logger)
        }
        var contents = ["audit_content"]
        if let partitions { contents += (0..<partitions).map { "audit_content_p\($0)" } }
        for table in contents {
            try await connection.query(PostgresQuery(unsafeSQL: "REVOKE UPDATE ON \(table) FROM PUBLIC, CURRENT_USER"), logger: logger)
        }
    }
}
