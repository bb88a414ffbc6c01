import Foundation
import GRDB
import PostgresNIO
import SurveyCore
import Testing
@testable import SurveyStorage

/// Each store's schema is a numbered list of steps recorded in `schema_migrations`; a store
/// made by the version before that ledger (the files in `Tests/Fixtures/stores/`) is brought
/// forward without losing a row.
@Suite("Store migrations")
struct StoreMigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stores").path

    @Test("Each store's steps are numbered from 1 with none missing, and a list out of order is caught")
    func numbering() {
        #expect(StoreMigration.problem(in: SQLiteRunStore.migrations) == nil)
        #expect(StoreMigration.problem(in: PostgresRunStore.migrations) == nil)
        var shuffled = SQLiteRunStore.migrations
        shuffled.swapAt(2, 3)
        #expect(StoreMigration.problem(in: shuffled) == "migration 4 (visit-rows) is at place 3")
        let twice = [StoreMigration(1, "runs", 0), StoreMigration(2, "runs", 0)]
        #expect(StoreMigration.problem(in: twice) == "two migrations share a name")
    }

    /// The ledger's lines, as (number, name).
    static func ledger(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT number, name FROM schema_migrations ORDER BY number").map { "\($0[0] as Int) \($0[1] as String)" }
        }
    }

    static func columns(_ path: String) throws -> [String: [String]] {
        try DatabaseQueue(path: path).read { db in
            var found: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                found[table] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }.sorted()
            }
            return found
        }
    }

    @Test("A SQLite file made before the ledger reads back every row after migrating, with its steps recorded once and its names in snake case")
    func sqliteBeforeLedger() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("runs.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixtures + "/sqlite-before-ledger.sqlite", toPath: path)
        #expect(try Self.columns(path)["runs"]?.contains("finishReason") == true, "the fixture has the old names")

        let store = try SQLiteRunStore(path: path)
        try store.migrate()
        #expect(try await StoreBeforeLedger.readBack(store) == [])
        let names = SQLiteRunStore.migrations.map { "\($0.number) \($0.name)" }
        #expect(try Self.ledger(path) == names)
        let tables = try Self.columns(path)
        #expect(tables["grdb_migrations"] == nil)
        #expect(Set(tables.keys) == ["runs", "visits", "outbox", "survey_versions", "kiosk_revocations", "documents", "schema_migrations",
                                     "audit_log", "audit_content", "audit_chains", "allocation_sequences", "allocations", "quota_counts",
                                     "quota_members", "dashboard_surveys", "dashboard_runs", "dashboard_labels", "dashboard_steps",
                                     "dashboard_answers"])
        for (table, columns) in tables {
            for column in columns { #expect(column.allSatisfy { $0.isLowercase || $0 == "_" }, "\(table).\(column)") }
        }
        // Again: nothing to do, nothing changed; and the store writes as before.
        try store.migrate()
        #expect(try Self.ledger(path) == names)
        var saved = try #require(try await store.record(id: StoreBeforeLedger.id(2)))
        saved.savedAt = nil
        saved = try await store.update(saved)
        #expect(try await SQLiteRunStore(path: path).record(id: saved.id) == saved)
    }

    @Test("A new SQLite file gets every step in order, recorded once")
    func sqliteFresh() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SQLiteRunStore(path: path).migrate()
        try SQLiteRunStore(path: path).migrate()
        #expect(try Self.ledger(path) == SQLiteRunStore.migrations.map { "\($0.number) \($0.name)" })
    }
}

/// The same for PostgreSQL, from a dump of a database the version before the ledger made.
@Suite("Store migrations: PostgreSQL",
       .enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil
                    || ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == "1"))
struct PostgresMigrationTests {
    @Test("A database made before the ledger reads back every row after migrating, and gets its steps recorded once")
    func beforeLedger() async throws {
        let (store, schema) = try await PostgresVisitRowsTests.store()
        let dump = try String(contentsOfFile: StoreMigrationTests.fixtures + "/postgres-before-ledger.sql", encoding: .utf8)
        let statements = dump.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            .components(separatedBy: ";\n").map { $0.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(statements.count > 20)
        for statement in statements {
            try await store.client.query(PostgresQuery(unsafeSQL: statement.replacingOccurrences(of: "before_ledger", with: schema)))
        }
        try await store.migrate()
        #expect(try await StoreBeforeLedger.readBack(store) == [])
        let names = PostgresRunStore.migrations.map { "\($0.number) \($0.name)" }
        #expect(try await Self.ledger(store) == names)
        try await store.migrate()
        #expect(try await Self.ledger(store) == names)
    }

    @Test("Both stores name their tables and columns alike")
    func sameNames() async throws {
        let (store, schema) = try await PostgresVisitRowsTests.store()
        try await store.migrate()
        var postgres: [String: [String]] = [:]
        let rows = try await store.client.query("""
            SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns WHERE table_schema = \(schema)
            """)
        for try await (table, column) in rows.decode((String, String).self) { postgres[table, default: []].append(column) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SQLiteRunStore(path: path).migrate()
        let sqlite = try StoreMigrationTests.columns(path)
        // Resume codes have a table of their own in PostgreSQL, so that a distributed database
        // can keep them unique; SQLite keeps them unique on `runs`.
        #expect(Set(postgres.keys).subtracting(["resume_codes"]) == Set(sqlite.keys))
        for (table, columns) in sqlite { #expect(postgres[table]?.sorted() == columns, "\(table)") }
    }

    static func ledger(_ store: PostgresRunStore) async throws -> [String] {
        var lines: [String] = []
        for try await (number, name) in try await store.client.query("SELECT number, name FROM schema_migrations ORDER BY number")
            .decode((Int, String).self) { lines.append("\(number) \(name)") }
        return lines
    }
}
