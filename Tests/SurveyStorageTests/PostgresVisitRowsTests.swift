import Foundation
import PostgresNIO
import SurveyCore
import Testing
@testable import SurveyStorage

/// The PostgreSQL store keeps a run as a header row and a row per visit, as the SQLite store
/// does: an answer rewrites the visits it changed and no other, and runs stored whole before
/// are split when the schema is migrated.
@Suite("PostgreSQL store: visit rows",
       .enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil
                    || ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == "1"))
struct PostgresVisitRowsTests {
    static func store() async throws -> (PostgresRunStore, String) {
        let url = try #require(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"], "no PostgreSQL server for the tests")
        let schema = "v_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let store = try PostgresRunStore(url: url + "?schema=" + schema)
        Task { await store.client.run() }
        return (store, schema)
    }

    /// Each visit row's index with the transaction that last wrote it.
    static func writers(_ store: PostgresRunStore, run: UUID) async throws -> [Int: String] {
        var found: [Int: String] = [:]
        let rows = try await store.client.query("SELECT idx, xmin::TEXT FROM visits WHERE run = \(run) ORDER BY idx")
        for try await (index, xmin) in rows.decode((Int, String).self) { found[index] = xmin }
        return found
    }

    @Test("An answer rewrites its own visit and the next, not the visits before; a shorter path removes the rows past it")
    func writesWhatChanged() async throws {
        let (store, _) = try await Self.store()
        try await store.migrate()
        var record = try await store.insert(RunStoreBehaviourTests.record())
        for step in 1...8 {
            SQLiteVisitRowsTests.answered(&record, "q\(step)", value: "\(step)", at: Double(step))
            record = try await store.update(record)
        }
        let before = try await Self.writers(store, run: record.id)
        #expect(before.count == 9)
        SQLiteVisitRowsTests.answered(&record, "q9", value: "9", at: 9)
        record = try await store.update(record)
        let after = try await Self.writers(store, run: record.id)
        #expect(after.count == 10)
        for index in 0..<8 { #expect(after[index] == before[index], "visit \(index) was not written again") }
        #expect(after[8] != before[8], "the visit answered was written")
        #expect(try await store.record(id: record.id) == record)

        // A changed earlier answer whose branch drops the visits after it.
        record.run.visits[3].results = []
        record.run.visits.removeSubrange(5...)
        record.run.cursor = 4
        record = try await store.update(record)
        let cut = try await Self.writers(store, run: record.id)
        #expect(cut.keys.sorted() == [0, 1, 2, 3, 4])
        #expect(cut[0] == before[0] && cut[3] != before[3])
        #expect(try await store.record(id: record.id) == record)
    }

    @Test("A record that does not know what the store holds rewrites every visit, with the same result")
    func unknownStoredState() async throws {
        let (store, _) = try await Self.store()
        try await store.migrate()
        var record = try await store.insert(RunStoreBehaviourTests.record())
        SQLiteVisitRowsTests.answered(&record, "q1", value: "a", at: 1)
        record = try await store.update(record)
        record.storedVisits = StoredState()
        SQLiteVisitRowsTests.answered(&record, "q2", value: "b", at: 2)
        record = try await store.update(record)
        #expect(try await store.record(id: record.id) == record)
        #expect(try await Self.writers(store, run: record.id).count == 3)
    }

    @Test("Runs stored whole by an earlier version are split into visit rows by the migration, and read back the same")
    func migrationSplitsRuns() async throws {
        let (store, schema) = try await Self.store()
        // The schema as the store wrote it before visit rows: the whole run in `state`.
        var record = RunStoreBehaviourTests.record()
        SQLiteVisitRowsTests.answered(&record, "q1", value: "a", at: 1)
        SQLiteVisitRowsTests.answered(&record, "q2", value: "b", at: 2)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let whole = String(decoding: try encoder.encode(record.run), as: UTF8.self)
        try await store.client.query("CREATE SCHEMA \(unescaped: schema)")
        try await store.client.query("""
            CREATE TABLE runs (
                id UUID PRIMARY KEY, survey TEXT NOT NULL, session TEXT NOT NULL, finished BOOLEAN NOT NULL,
                finish_reason TEXT, version INTEGER NOT NULL, started_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL, state TEXT NOT NULL, saved_at DOUBLE PRECISION,
                resume_code TEXT UNIQUE, resume_token TEXT UNIQUE, resume_expires_at DOUBLE PRECISION,
                external_id TEXT, return_url TEXT)
            """)
        try await store.client.query("""
            INSERT INTO runs (id, survey, session, finished, version, started_at, updated_at, state)
            VALUES (\(record.id), \(record.surveyIdentifier), \(record.sessionID), false, 3,
                    \(record.run.startDate.timeIntervalSince1970), \(record.updatedAt.timeIntervalSince1970), \(whole))
            """)
        try await store.migrate()
        let read = try #require(try await store.record(id: record.id))
        #expect(read.run == record.run)
        #expect(read.version == 3)
        #expect(try await Self.writers(store, run: record.id).count == 3)
        var header = ""
        for try await state in try await store.client.query("SELECT state FROM runs WHERE id = \(record.id)").decode(String.self) {
            header = state
        }
        #expect(header.contains(#""visits": []"#), "jsonb writes a space after the colon")
        // Migrating again changes nothing.
        try await store.migrate()
        #expect(try await store.record(id: record.id)?.run == record.run)
    }
}

/// The schema is ready to be distributed by run id: every run table's keys include the run id,
/// which PostgreSQL's hash partitioning enforces as Citus does; resume codes stay unique across
/// runs through a table keyed by code.
@Suite("PostgreSQL store: a schema partitioned by run id",
       .enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil
                    || ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == "1"))
struct PostgresPartitionTests {
    @Test("With ?partitions=4 the run tables are hash-partitioned by run id, and runs land in more than one part")
    func partitioned() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"])
        let schema = "p_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let store = try PostgresRunStore(url: url + "?schema=\(schema)&partitions=4")
        Task { await store.client.run() }
        try await store.migrate()
        var tables: [String: String] = [:]
        let rows = try await store.client.query("""
            SELECT c.relname, pg_get_partkeydef(c.oid) FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(schema)
            """)
        for try await (name, key) in rows.decode((String, String).self) { tables[name] = key }
        // The audit log's tables are spread by chain, a run's chain being named by its id; the
        // dashboard's facts by run.
        #expect(tables == ["runs": "HASH (id)", "visits": "HASH (run)", "outbox": "HASH (run_id)", "documents": "HASH (run)",
                           "audit_log": "HASH (chain)", "audit_content": "HASH (chain)", "dashboard_runs": "HASH (run)",
                           "dashboard_labels": "HASH (run)", "dashboard_steps": "HASH (run)", "dashboard_answers": "HASH (run)"])
        for seconds in 0..<12 {
            _ = try await store.insert(RunStoreBehaviourTests.record(session: "s\(seconds)", at: Double(seconds)))
        }
        var used = 0
        for try await count in try await store.client.query("SELECT count(DISTINCT tableoid)::INTEGER FROM runs").decode(Int.self) {
            used = count
        }
        #expect(used > 1)
        // Migrating again changes nothing.
        try await store.migrate()
    }

    @Test("A resume code another run holds is refused and leaves the run as it was; a run's own code can be kept, changed and cleared",
          arguments: [false, true])
    func resumeCodes(partitioned: Bool) async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"])
        let schema = "c_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let store = try PostgresRunStore(url: url + "?schema=\(schema)" + (partitioned ? "&partitions=2" : ""))
        Task { await store.client.run() }
        try await store.migrate()
        let expires = Date(timeIntervalSince1970: 1_900_000_000)
        var first = try await store.insert(RunStoreBehaviourTests.record(session: "a"))
        first.resume = ResumeTicket(code: "ABCD2345", token: "token-a", expiresAt: expires)
        first = try await store.update(first)
        var second = try await store.insert(RunStoreBehaviourTests.record(session: "b", at: 1))
        let before = second
        second.resume = ResumeTicket(code: "ABCD2345", token: "token-b", expiresAt: expires)
        await #expect(throws: RunStoreError.self) { try await store.update(second) }
        #expect(try await store.record(id: second.id) == before, "nothing of the refused update stayed")
        #expect(try await store.record(resumeCode: "ABCD2345")?.id == first.id)
        // The same code written again, then a new one, then none.
        first.updatedAt = first.updatedAt.addingTimeInterval(1)
        first = try await store.update(first)
        first.resume = ResumeTicket(code: "EFGH6789", token: "token-a2", expiresAt: expires)
        first = try await store.update(first)
        #expect(try await store.record(resumeCode: "ABCD2345") == nil)
        #expect(try await store.record(resumeCode: "EFGH6789")?.id == first.id)
        #expect(try await store.record(resumeToken: "token-a2")?.id == first.id)
        first.resume = nil
        first = try await store.update(first)
        #expect(try await store.record(resumeCode: "EFGH6789") == nil)
        // The code is free again for another run; a deleted run frees its code too.
        second = try #require(try await store.record(id: second.id))
        second.resume = ResumeTicket(code: "EFGH6789", token: "token-b2", expiresAt: expires)
        second = try await store.update(second)
        #expect(try await store.record(resumeCode: "EFGH6789")?.id == second.id)
        try await store.delete(id: second.id, erasure: .erasure(reason: "test", by: .system("test"), at: Date()))
        var left = -1
        for try await count in try await store.client.query("SELECT count(*)::INTEGER FROM resume_codes").decode(Int.self) { left = count }
        #expect(left == 0)
    }
}
