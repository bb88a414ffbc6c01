import Foundation
import GRDB
import SurveyCore

/// The SQLite store's schema as a list of steps (see `StoreMigration`), applied in order, each
/// in a transaction of its own with its line in `schema_migrations`.
extension SQLiteRunStore {
    typealias Step = @Sendable (Database) throws -> Void

    /// Applies the steps the file has not had yet.
    public func migrate() throws {
        try migrate(upTo: Self.migrations.count)
    }

    /// Applies the steps up to `last` the file has not had yet (a file as an earlier version left it, for tests).
    func migrate(upTo last: Int) throws {
        try pool.write { db in
            try db.execute(sql: MigrationLedger.create)
            try Self.adoptGRDBLedger(db)
        }
        for migration in Self.migrations.prefix(last) {
            try pool.write { db in
                let applied = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE number = ?)",
                                                arguments: [migration.number]) ?? false
                guard !applied else { return }
                try migration.step(db)
                try db.execute(sql: "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                               arguments: [migration.number, migration.name, Date().timeIntervalSince1970])
            }
        }
    }

    /// Files made before the ledger recorded steps 1 to 7 in GRDB's table, as `v1-runs`…: those
    /// lines move to `schema_migrations`, and GRDB's table goes.
    private static func adoptGRDBLedger(_ db: Database) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        let identifiers = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        for migration in migrations where identifiers.contains("v\(migration.number)-\(migration.name)") {
            try db.execute(sql: "INSERT OR IGNORE INTO schema_migrations (number, name, applied_at) VALUES (?, ?, 0)",
                           arguments: [migration.number, migration.name])
        }
        try db.execute(sql: "DROP TABLE grdb_migrations")
    }

    static let migrations: [StoreMigration<Step>] = [
        StoreMigration(1, "runs") { db in
            try db.create(table: "runs") { table in
                table.primaryKey("id", .text)
                table.column("survey", .text).notNull()
                table.column("session", .text).notNull()
                table.column("finished", .boolean).notNull()
                table.column("finishReason", .text)
                table.column("version", .integer).notNull()
                table.column("startedAt", .double).notNull()
                table.column("updatedAt", .double).notNull()
                table.column("state", .blob).notNull()
            }
            try db.create(index: "runs_by_session", on: "runs", columns: ["session", "survey", "finished", "updatedAt"])
        },
        StoreMigration(2, "resume-and-api") { db in
            try db.alter(table: "runs") { table in
                table.add(column: "savedAt", .double)
                table.add(column: "resumeCode", .text)
                table.add(column: "resumeToken", .text)
                table.add(column: "resumeExpiresAt", .double)
                table.add(column: "externalID", .text)
                table.add(column: "returnURL", .text)
            }
            try db.create(index: "runs_by_resume_code", on: "runs", columns: ["resumeCode"], unique: true)
            try db.create(index: "runs_by_resume_token", on: "runs", columns: ["resumeToken"], unique: true)
            try db.create(index: "runs_by_survey", on: "runs", columns: ["survey", "updatedAt"])
        },
        StoreMigration(3, "outbox") { db in
            try db.create(table: "outbox") { table in
                table.primaryKey("id", .text)
                table.column("runID", .text).notNull()
                table.column("payload", .text).notNull()
                table.column("attempts", .integer).notNull()
                table.column("nextAttemptAt", .double).notNull()
            }
            try db.create(index: "outbox_by_due", on: "outbox", columns: ["nextAttemptAt"])
        },
        StoreMigration(4, "visit-rows") { db in
            try db.create(table: "visits", options: [.withoutRowID]) { table in
                table.column("run", .text).notNull().references("runs", column: "id", onDelete: .cascade)
                table.column("idx", .integer).notNull()
                table.column("data", .blob).notNull()
                table.primaryKey(["run", "idx"])
            }
            // Runs written before: their whole state becomes a header and visit rows.
            let rows = try Row.fetchAll(db, sql: "SELECT id, state FROM runs")
            for row in rows {
                let run = try SQLiteRunStore.decoder.decode(TaskRun.self, from: row["state"] as Data)
                try SQLiteRunStore.writeVisits(db, id: row["id"], encoded: try SQLiteRunStore.encodeVisits(run.visits, from: 0), from: 0,
                                     count: run.visits.count, previousCount: 0)
                try db.execute(sql: "UPDATE runs SET state = ? WHERE id = ?", arguments: [try SQLiteRunStore.header(run), row["id"] as String])
            }
        },
        StoreMigration(5, "unanswered") { db in
            // Runs written before are taken as answered, so none is deleted by mistake.
            try db.alter(table: "runs") { table in
                table.add(column: "unanswered", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "runs_unanswered", on: "runs", columns: ["updatedAt"], condition: Column("unanswered") == true)
        },
        StoreMigration(6, "survey-versions") { db in
            try db.alter(table: "runs") { table in
                table.add(column: "surveyVersion", .text)
            }
            try db.create(table: "surveyVersions", options: [.withoutRowID]) { table in
                table.column("survey", .text).notNull()
                table.column("version", .text).notNull()
                table.column("definition", .text).notNull()
                table.column("keptAt", .double).notNull()
                table.primaryKey(["survey", "version"])
            }
            // Exports page through a survey's runs in identifier order.
            try db.create(index: "runs_by_survey_id", on: "runs", columns: ["survey", "id"])
        },
        StoreMigration(7, "kiosk-revocations") { db in
            try db.create(table: "kioskRevocations", options: [.withoutRowID]) { table in
                table.column("device", .text).notNull().primaryKey()
                table.column("revokedAt", .double).notNull()
                table.column("until", .double).notNull()
            }
            try db.create(index: "kioskRevocations_by_time", on: "kioskRevocations", columns: ["revokedAt"])
        },
        StoreMigration(8, "snake-case-names") { db in
            // The names PostgreSQL's store has always used.
            let renamed = [
                ("runs", [("finishReason", "finish_reason"), ("startedAt", "started_at"), ("updatedAt", "updated_at"),
                          ("savedAt", "saved_at"), ("resumeCode", "resume_code"), ("resumeToken", "resume_token"),
                          ("resumeExpiresAt", "resume_expires_at"), ("externalID", "external_id"), ("returnURL", "return_url"),
                          ("surveyVersion", "survey_version")]),
                ("outbox", [("runID", "run_id"), ("nextAttemptAt", "next_attempt_at")]),
                ("surveyVersions", [("keptAt", "kept_at")]),
                ("kioskRevocations", [("revokedAt", "revoked_at")]),
            ]
            for (table, columns) in renamed {
                for (old, new) in columns {
                    try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(old) TO \(new)")
                }
            }
            try db.execute(sql: "ALTER TABLE surveyVersions RENAME TO survey_versions")
            try db.execute(sql: "ALTER TABLE kioskRevocations RENAME TO kiosk_revocations")
            try db.execute(sql: "DROP INDEX kioskRevocations_by_time")
            try db.execute(sql: "CREATE INDEX kiosk_revocations_by_time ON kiosk_revocations (revoked_at)")
        },
        StoreMigration(9, "fhir-context") { db in
            // The subject and encounter (FHIR References, as JSON) a run started through the API names.
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN fhir_context TEXT")
        },
        StoreMigration(10, "documents") { db in
            // Signed consent copies, written once per run and kind and never replaced; `digest` is the SHA-256 of `bytes`.
            try db.execute(sql: """
                CREATE TABLE documents (
                    run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, kind TEXT NOT NULL, bytes BLOB NOT NULL,
                    digest TEXT NOT NULL, created_at DOUBLE NOT NULL, PRIMARY KEY (run, kind)) WITHOUT ROWID
                """)
        },
        StoreMigration(11, "audit-log") { db in
            // The audit log (see AuditEntry and SQLiteRunStore+Audit): entries are never changed
            // or deleted, content is deleted when erased and never changed, and a run's chain
            // head is on its row. Entries about a run in another chain than its own (reads,
            // deliveries) are indexed by run; a run's own are found by their chain.
            try db.execute(sql: """
                CREATE TABLE audit_log (
                    id INTEGER PRIMARY KEY, chain TEXT NOT NULL, seq INTEGER NOT NULL, at_ms INTEGER NOT NULL, actor TEXT NOT NULL,
                    action TEXT NOT NULL, survey TEXT NOT NULL, run TEXT, detail TEXT NOT NULL, content_hash TEXT NOT NULL,
                    previous_hash TEXT NOT NULL, hash TEXT NOT NULL);
                CREATE UNIQUE INDEX audit_log_by_chain ON audit_log (chain, seq);
                CREATE INDEX audit_log_by_run ON audit_log (run) WHERE run IS NOT NULL AND run <> chain;
                CREATE TABLE audit_content (id INTEGER PRIMARY KEY, chain TEXT NOT NULL, salt TEXT NOT NULL, body TEXT NOT NULL);
                CREATE TABLE audit_chains (chain TEXT PRIMARY KEY, seq INTEGER NOT NULL, head TEXT NOT NULL) WITHOUT ROWID;
                CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
                    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
                    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                CREATE TRIGGER audit_content_no_update BEFORE UPDATE ON audit_content
                    BEGIN SELECT RAISE(ABORT, 'audit content is erased, never changed'); END;
                ALTER TABLE runs ADD COLUMN audit_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE runs ADD COLUMN audit_head TEXT NOT NULL DEFAULT '\(AuditHead.genesis.hash)';
                """)
        },
        StoreMigration(12, "panels") { db in
            // Each allocation step's sequence per stratum (what is left of its block), every
            // arm assigned, and the completed runs each quota counted (docs/panels.md).
            try db.execute(sql: """
                CREATE TABLE allocation_sequences (
                    survey TEXT NOT NULL, step TEXT NOT NULL, stratum TEXT NOT NULL, next_seq INTEGER NOT NULL, pending TEXT NOT NULL,
                    PRIMARY KEY (survey, step, stratum)) WITHOUT ROWID;
                CREATE TABLE allocations (
                    survey TEXT NOT NULL, step TEXT NOT NULL, stratum TEXT NOT NULL, seq INTEGER NOT NULL, arm TEXT NOT NULL,
                    participant TEXT, run TEXT NOT NULL, at DOUBLE NOT NULL, PRIMARY KEY (survey, step, stratum, seq)) WITHOUT ROWID;
                CREATE UNIQUE INDEX allocations_by_participant ON allocations (survey, step, participant) WHERE participant IS NOT NULL;
                CREATE TABLE quota_counts (
                    survey TEXT NOT NULL, quota TEXT NOT NULL, filled INTEGER NOT NULL, PRIMARY KEY (survey, quota)) WITHOUT ROWID;
                CREATE TABLE quota_members (
                    survey TEXT NOT NULL, quota TEXT NOT NULL, run TEXT NOT NULL, PRIMARY KEY (survey, quota, run)) WITHOUT ROWID;
                """)
        },
            StoreMigration(13, "dashboard") { db in
            // Each run's facts for the researchers' dashboard (SQLiteRunStore+Dashboard), gone with
            // the run; the indexes hold every column a dashboard query groups or filters by, so
            // each query reads one index in order.
            try db.execute(sql: """
                CREATE TABLE dashboard_surveys (survey TEXT PRIMARY KEY, watermark DOUBLE NOT NULL) WITHOUT ROWID;
                CREATE TABLE dashboard_runs (
                    run TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE, survey TEXT NOT NULL, version INTEGER NOT NULL,
                    day INTEGER NOT NULL, status TEXT NOT NULL) WITHOUT ROWID;
                CREATE INDEX dashboard_runs_by_day ON dashboard_runs (survey, day, status);
                CREATE TABLE dashboard_labels (
                    run TEXT NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, survey TEXT NOT NULL, name TEXT NOT NULL,
                    value TEXT NOT NULL, PRIMARY KEY (run, name)) WITHOUT ROWID;
                CREATE INDEX dashboard_labels_by_value ON dashboard_labels (survey, name, value);
                CREATE TABLE dashboard_steps (
                    run TEXT NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, position INTEGER NOT NULL, survey TEXT NOT NULL,
                    day INTEGER NOT NULL, status TEXT NOT NULL, step TEXT NOT NULL, stopped INTEGER NOT NULL, seconds INTEGER,
                    PRIMARY KEY (run, position)) WITHOUT ROWID;
                CREATE INDEX dashboard_steps_by_step ON dashboard_steps (survey, step, stopped, status, seconds, day);
                CREATE TABLE dashboard_answers (
                    run TEXT NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, position INTEGER NOT NULL, survey TEXT NOT NULL,
                    day INTEGER NOT NULL, status TEXT NOT NULL, key TEXT NOT NULL, outcome TEXT NOT NULL, bucket TEXT, number DOUBLE,
                    PRIMARY KEY (run, position)) WITHOUT ROWID;
                CREATE INDEX dashboard_answers_by_key ON dashboard_answers (survey, key, outcome, bucket, number, day, status);
                """)
        },
        StoreMigration(14, "discarded-runs") { db in
            // The runs chart counts discarded runs from their erasures in the audit log
            // (DashboardStore.dashboardDiscardedRuns); this index finds a survey's erasures.
            try db.execute(sql: DashboardSQL.erasureIndex)
        },
    ]
}
