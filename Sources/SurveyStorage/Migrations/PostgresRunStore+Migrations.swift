import Foundation
import Logging
import PostgresNIO
import SurveyCore

/// The PostgreSQL store's schema as a list of steps (see `StoreMigration`), applied in order,
/// each in a transaction of its own with its line in `schema_migrations`, under an advisory lock
/// so that replicas starting together take turns.
///
/// Steps 1 to 7 ran, unrecorded, on every start of the versions before the ledger, so a
/// database may have had them without a line: they are written to change nothing the second
/// time, and such a database gets its lines the first time it is migrated.
extension PostgresRunStore {
    typealias Step = @Sendable (PostgresRunStore, PostgresConnection) async throws -> Void

    /// Applies the steps the database has not had yet.
    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7203150419)", logger: logger)
            if let schema {
                try await connection.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: logger)
            }
            try await connection.query(PostgresQuery(unsafeSQL: MigrationLedger.create), logger: logger)
        }
        for migration in Self.migrations {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7203150419)", logger: logger)
                var applied = false
                let rows = try await connection.query("SELECT 1 FROM schema_migrations WHERE number = \(migration.number)", logger: logger)
                for try await _ in rows { applied = true }
                guard !applied else { return }
                try await migration.step(self, connection)
                try await connection.query("""
                    INSERT INTO schema_migrations (number, name, applied_at)
                    VALUES (\(migration.number), \(migration.name), \(Date().timeIntervalSince1970))
                    """, logger: logger)
            }
        }
    }

    static let migrations: [StoreMigration<Step>] = [
        StoreMigration(1, "runs") { store, connection in
            // Every key includes the run id and every write touches one run, so the run tables
            // can be distributed by run id (see partitions).
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS runs (
                    id UUID PRIMARY KEY, survey TEXT NOT NULL, session TEXT NOT NULL, finished BOOLEAN NOT NULL,
                    finish_reason TEXT, version INTEGER NOT NULL, started_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL, state TEXT NOT NULL, saved_at DOUBLE PRECISION,
                    resume_code TEXT, resume_token TEXT, resume_expires_at DOUBLE PRECISION,
                    external_id TEXT, return_url TEXT)\(unescaped: store.partitioning("id"))
                """, logger: store.logger)
            try await store.createPartitions(of: "runs", connection)
            try await connection.query("CREATE INDEX IF NOT EXISTS runs_by_session ON runs (session, survey, finished, updated_at)",
                                       logger: store.logger)
            try await connection.query("CREATE INDEX IF NOT EXISTS runs_by_survey ON runs (survey, updated_at)", logger: store.logger)
        },
        StoreMigration(2, "visit-rows") { store, connection in try await store.createVisits(connection) },
        StoreMigration(3, "resume-codes") { store, connection in try await store.createResumeCodes(connection) },
        StoreMigration(4, "outbox") { store, connection in
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS outbox (
                    id UUID NOT NULL, run_id UUID NOT NULL, payload TEXT NOT NULL, attempts INTEGER NOT NULL,
                    next_attempt_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (run_id, id))\(unescaped: store.partitioning("run_id"))
                """, logger: store.logger)
            try await store.createPartitions(of: "outbox", connection)
            // Outboxes made before were keyed by the event alone.
            try await connection.query("""
                DO $$ BEGIN
                    IF (SELECT array_length(conkey, 1) FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND contype = 'p') = 1 THEN
                        ALTER TABLE outbox DROP CONSTRAINT outbox_pkey;
                        ALTER TABLE outbox ADD PRIMARY KEY (run_id, id);
                    END IF;
                END $$
                """, logger: store.logger)
            try await connection.query("CREATE INDEX IF NOT EXISTS outbox_by_due ON outbox (next_attempt_at)", logger: store.logger)
        },
        StoreMigration(5, "unanswered") { store, connection in
            // Runs written before are taken as answered, so none is deleted by mistake.
            try await connection.query("ALTER TABLE runs ADD COLUMN IF NOT EXISTS unanswered BOOLEAN NOT NULL DEFAULT FALSE",
                                       logger: store.logger)
            try await connection.query("CREATE INDEX IF NOT EXISTS runs_unanswered ON runs (updated_at) WHERE unanswered", logger: store.logger)
        },
        StoreMigration(6, "survey-versions") { store, connection in
            try await connection.query("ALTER TABLE runs ADD COLUMN IF NOT EXISTS survey_version TEXT", logger: store.logger)
            // Exports page through a survey's runs in identifier order.
            try await connection.query("CREATE INDEX IF NOT EXISTS runs_by_survey_id ON runs (survey, id)", logger: store.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS survey_versions (
                    survey TEXT NOT NULL, version TEXT NOT NULL, definition TEXT NOT NULL, kept_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (survey, version))
                """, logger: store.logger)
        },
        StoreMigration(7, "kiosk-revocations") { store, connection in
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS kiosk_revocations (
                    device TEXT PRIMARY KEY, revoked_at DOUBLE PRECISION NOT NULL, until DOUBLE PRECISION NOT NULL)
                """, logger: store.logger)
            try await connection.query("CREATE INDEX IF NOT EXISTS kiosk_revocations_by_time ON kiosk_revocations (revoked_at)",
                                       logger: store.logger)
        },
        StoreMigration(8, "fhir-context") { store, connection in
            // The subject and encounter (FHIR References, as JSON) a run started through the API names.
            try await connection.query("ALTER TABLE runs ADD COLUMN IF NOT EXISTS fhir_context TEXT", logger: store.logger)
        },
        StoreMigration(9, "documents") { store, connection in
            // Signed consent copies, written once per run and kind and never replaced; `digest` is the SHA-256 of `bytes`.
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS documents (
                    run UUID NOT NULL REFERENCES runs (id) ON DELETE CASCADE, kind TEXT NOT NULL, bytes BYTEA NOT NULL,
                    digest TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (run, kind))\(unescaped: store.partitioning("run"))
                """, logger: store.logger)
            try await store.createPartitions(of: "documents", connection)
        },
        StoreMigration(10, "audit-log") { store, connection in try await store.createAuditLog(connection) },
        StoreMigration(11, "panels") { store, connection in
            // Each allocation step's sequence per stratum (what is left of its block), every
            // arm assigned, and each quota's count with the runs it counted (docs/panels.md).
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS allocation_sequences (
                    survey TEXT NOT NULL, step TEXT NOT NULL, stratum TEXT NOT NULL, next_seq BIGINT NOT NULL, pending TEXT NOT NULL,
                    PRIMARY KEY (survey, step, stratum))
                """, logger: store.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS allocations (
                    survey TEXT NOT NULL, step TEXT NOT NULL, stratum TEXT NOT NULL, seq BIGINT NOT NULL, arm TEXT NOT NULL,
                    participant TEXT, run UUID NOT NULL, at DOUBLE PRECISION NOT NULL, PRIMARY KEY (survey, step, stratum, seq))
                """, logger: store.logger)
            try await connection.query("""
                CREATE UNIQUE INDEX IF NOT EXISTS allocations_by_participant ON allocations (survey, step, participant)
                WHERE participant IS NOT NULL
                """, logger: store.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS quota_counts (survey TEXT NOT NULL, quota TEXT NOT NULL, filled BIGINT NOT NULL,
                    PRIMARY KEY (survey, quota))
                """, logger: store.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS quota_members (survey TEXT NOT NULL, quota TEXT NOT NULL, run UUID NOT NULL,
                    PRIMARY KEY (survey, quota, run))
                """, logger: store.logger)
        },
        StoreMigration(12, "dashboard") { store, connection in try await store.createDashboard(connection) },
        StoreMigration(13, "discarded-runs") { store, connection in
            // The runs chart counts discarded runs from their erasures in the audit log
            // (DashboardStore.dashboardDiscardedRuns); this index finds a survey's erasures.
            try await connection.query(PostgresQuery(unsafeSQL: DashboardSQL.erasureIndex), logger: store.logger)
        },
    ]

    /// A run is a row of `runs` (its header: everything but the visits, in `state`) and a row
    /// of `visits` per step visit, so an answer writes the visits it changed, not the whole run.
    /// Runs stored whole before are split once, under the migration's lock.
    func createVisits(_ connection: PostgresConnection) async throws {
        guard try await !exists("visits", connection) else { return }
        try await connection.query("""
            CREATE TABLE visits (
                run UUID NOT NULL REFERENCES runs (id) ON DELETE CASCADE, idx INTEGER NOT NULL, data TEXT NOT NULL,
                PRIMARY KEY (run, idx))\(unescaped: partitioning("run"))
            """, logger: logger)
        try await createPartitions(of: "visits", connection)
        try await connection.query("""
            INSERT INTO visits (run, idx, data)
            SELECT runs.id, (visit.position - 1)::INTEGER, visit.value::TEXT
            FROM runs, jsonb_array_elements(runs.state::jsonb -> 'visits') WITH ORDINALITY AS visit(value, position)
            """, logger: logger)
        try await connection.query("""
            UPDATE runs SET state = jsonb_set(state::jsonb, '{visits}', '[]'::jsonb)::TEXT
            WHERE jsonb_array_length(state::jsonb -> 'visits') > 0
            """, logger: logger)
    }

    /// Resume codes are typed by participants, so they must be unique across all runs: they are
    /// kept in a table of their own, keyed by code (a table a distributed database spreads by
    /// code), and a run's row holds its code for reading. Tokens are 192 random bits and need
    /// no such check.
    func createResumeCodes(_ connection: PostgresConnection) async throws {
        // Made unique on runs before: those constraints hold the run tables to one machine.
        try await connection.query("ALTER TABLE runs DROP CONSTRAINT IF EXISTS runs_resume_code_key", logger: logger)
        try await connection.query("ALTER TABLE runs DROP CONSTRAINT IF EXISTS runs_resume_token_key", logger: logger)
        try await connection.query("CREATE INDEX IF NOT EXISTS runs_by_resume_token ON runs (resume_token) WHERE resume_token IS NOT NULL",
                                   logger: logger)
        guard try await !exists("resume_codes", connection) else { return }
        try await connection.query("CREATE TABLE resume_codes (code TEXT PRIMARY KEY, run UUID NOT NULL)", logger: logger)
        try await connection.query("INSERT INTO resume_codes (code, run) SELECT resume_code, id FROM runs WHERE resume_code IS NOT NULL",
                                   logger: logger)
    }

    private func exists(_ table: String, _ connection: PostgresConnection) async throws -> Bool {
        var found = false
        for try await exists in try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger).decode(Bool.self) {
            found = exists
        }
        return found
    }

    /// ` PARTITION BY HASH (column)` when the store is partitioned.
    func partitioning(_ column: String) -> String {
        partitions == nil ? "" : " PARTITION BY HASH (\(column))"
    }

    func createPartitions(of table: String, _ connection: PostgresConnection) async throws {
        guard let partitions else { return }
        for remainder in 0..<partitions {
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS \(unescaped: table)_p\(unescaped: String(remainder)) PARTITION OF \(unescaped: table)
                FOR VALUES WITH (MODULUS \(unescaped: String(partitions)), REMAINDER \(unescaped: String(remainder)))
                """, logger: logger)
        }
    }
}
