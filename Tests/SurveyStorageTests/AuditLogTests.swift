import Foundation
import GRDB
import JSON
import PostgresNIO
import SurveyCore
import Testing
@testable import SurveyStorage

/// The audit log in each store: written with the change, chained, refused UPDATE and DELETE,
/// erased without breaking, and checked by `verifyAudit`, which names what was tampered with.
@Suite("Audit log")
struct AuditLogTests {
    typealias Kind = RunStoreBehaviourTests.Kind

    /// The stores with SQL to tamper with: SQLite, and PostgreSQL when the tests have one.
    static var sqlKinds: [Kind] { Kind.allCases.filter { $0 == .sqlite || $0 == .postgres } }

    static let participant = AuditActor.participant(session: "s1")

    static func event(_ action: String, _ detail: JSONValue = .object([:]), content: AuditContent? = nil, at seconds: Double = 0) -> AuditEvent {
        AuditEvent(action, by: participant, at: Date(timeIntervalSince1970: 1_800_000_000 + seconds), survey: "demo", detail: detail,
                   content: content)
    }

    /// A run answered, taken back, and answered differently: four entries, the answer kept before and after.
    static func walk(_ store: any RunStore) async throws -> RunRecord {
        var record = RunStoreBehaviourTests.record()
        record.audit.pending = [event("run.created", .object(["via": .string("link")]))]
        record = try await store.insert(record)
        record.audit.pending = [event("answer.saved", .object(["step": .string("intro")]), content: .json(.object(["after": .string("4")])), at: 1)]
        record = try await store.update(record)
        record.audit.pending = [event("step.back", .object(["step": .string("sleep")]), at: 2)]
        record = try await store.update(record)
        record.audit.pending = [event("answer.changed", .object(["step": .string("intro")]),
                                      content: .json(.object(["before": .string("4"), "after": .string("2")])), at: 3)]
        return try await store.update(record)
    }

    /// Runs SQL on the store's own database as someone with direct access would: with the
    /// triggers (and in PostgreSQL the revoked grants) that guard the log put aside first.
    static func tamper(_ store: any RunStore, _ sql: String) async throws {
        if let sqlite = store as? SQLiteRunStore {
            try await sqlite.pool.write { db in
                try db.execute(sql: "DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete")
                try db.execute(sql: sql)
            }
        } else if let postgres = store as? PostgresRunStore {
            try await postgres.client.query("GRANT UPDATE, DELETE ON audit_log TO CURRENT_USER")
            try await postgres.client.query("ALTER TABLE audit_log DISABLE TRIGGER USER")
            try await postgres.client.query(PostgresQuery(unsafeSQL: sql))
        }
    }

    static func sql(_ store: any RunStore, _ sql: String) async throws {
        if let sqlite = store as? SQLiteRunStore {
            try await sqlite.pool.write { db in try db.execute(sql: sql) }
        } else if let postgres = store as? PostgresRunStore {
            try await postgres.client.query(PostgresQuery(unsafeSQL: sql))
        }
    }

    @Test("A walk with Back and a changed answer keeps both values, and the log verifies", arguments: Kind.allCases)
    func walkKeepsBothValues(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let entries = try await store.auditEntries(AuditQuery(run: record.id))
        #expect(entries.map(\.action) == ["run.created", "answer.saved", "step.back", "answer.changed"])
        #expect(entries.map(\.seq) == [1, 2, 3, 4])
        #expect(entries[3].content == #"{"before":"4","after":"2"}"#)
        #expect(entries.allSatisfy { $0.run == AuditEntry.chain(of: record.id) && $0.actor == Self.participant.text })
        #expect(record.audit.head == AuditHead(seq: 4, hash: entries[3].hash))
        let verifier = try await store.verifyAudit()
        #expect(verifier.problems.isEmpty)
        #expect(verifier.entries == 4)
        // A stale record (one version behind) cannot append after a head it does not know.
        var stale = record
        stale.version -= 1
        stale.audit.pending = [Self.event("answer.saved", at: 9)]
        await #expect(throws: RunStoreError.self) { _ = try await store.update(stale) }
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("verify names an entry whose bytes were changed", arguments: sqlKinds)
    func alteredEntry(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let chain = AuditEntry.chain(of: record.id)
        try await Self.tamper(store, "UPDATE audit_log SET detail = replace(detail, 'sleep', 'sleeP') WHERE chain = '\(chain)' AND seq = 3")
        let problems = try await store.verifyAudit().problems
        let first = try #require(problems.first)
        #expect(first.chain == chain && first.seq == 3 && first.kind == .altered)
    }

    @Test("verify names an entry that was deleted", arguments: sqlKinds)
    func removedEntry(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let chain = AuditEntry.chain(of: record.id)
        try await Self.tamper(store, "DELETE FROM audit_log WHERE chain = '\(chain)' AND seq = 2")
        let first = try #require(try await store.verifyAudit().problems.first)
        #expect(first.chain == chain && first.seq == 2 && first.kind == .removed)
    }

    @Test("verify names an entry that was inserted", arguments: sqlKinds)
    func insertedEntry(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let chain = AuditEntry.chain(of: record.id)
        // A copy of entry 2 placed as entry 5, as if an answer had been given again.
        try await Self.tamper(store, """
            INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
            SELECT chain, 5, at_ms + 5000, actor, action, survey, run, detail, content_hash, previous_hash, hash
            FROM audit_log WHERE chain = '\(chain)' AND seq = 2
            """)
        let first = try #require(try await store.verifyAudit().problems.first)
        #expect(first.chain == chain && first.seq == 5 && first.kind == .inserted)
    }

    @Test("A removed last entry shows against the head the run records, and against an anchor", arguments: sqlKinds)
    func removedTail(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let chain = AuditEntry.chain(of: record.id)
        let anchor = try #require(try await store.anchorAudit(everything: true, now: Date(), by: .system("test")))
        #expect(anchor.chain == AuditEntry.anchorChain && anchor.detail.contains(chain))
        let third = try #require(try await store.auditEntries(AuditQuery(run: record.id)).first { $0.seq == 3 })
        // The run's row is made to agree, so only the anchor still knows.
        try await Self.tamper(store, "DELETE FROM audit_log WHERE chain = '\(chain)' AND seq = 4")
        try await Self.sql(store, "UPDATE runs SET audit_seq = 3, audit_head = '\(third.hash)'")
        let problems = try await store.verifyAudit().problems
        #expect(problems.contains { $0.chain == chain && $0.seq == 4 && $0.kind == .removed && $0.message.contains("anchor") })
    }

    @Test("An anchor lists the chains written to since the one before, and none when nothing was", arguments: Kind.allCases)
    func anchorsFollowOnFromEachOther(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let first = try await Self.walk(store)
        try await store.appendAudit([AuditEvent("results.read", by: .token("lab"), at: Date(), run: first.id)], chain: AuditEntry.accessChain)
        let anchor = try #require(try await store.anchorAudit(everything: false, now: Date(), by: .system("anchor")))
        #expect(anchor.detail.contains(AuditEntry.chain(of: first.id)) && anchor.detail.contains(#""access""#))
        if kind != .postgres && kind != .postgresPartitioned {
            // PostgreSQL looks back over the last entries on purpose (a sequence is not the order of commits).
            #expect(try await store.anchorAudit(everything: false, now: Date(), by: .system("anchor")) == nil)
        }
        let second = try await Self.walk(store)
        let next = try #require(try await store.anchorAudit(everything: false, now: Date(), by: .system("anchor")))
        #expect(next.detail.contains(AuditEntry.chain(of: second.id)))
        if kind != .postgres && kind != .postgresPartitioned { #expect(!next.detail.contains(AuditEntry.chain(of: first.id))) }
        #expect(next.seq == anchor.seq + 1)
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("The store refuses UPDATE and DELETE on the log", arguments: sqlKinds)
    func refusals(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await Self.walk(store)
        let chain = AuditEntry.chain(of: record.id)
        for statement in ["UPDATE audit_log SET action = 'x' WHERE chain = '\(chain)'", "DELETE FROM audit_log WHERE chain = '\(chain)'",
                          "UPDATE audit_content SET body = '{}'"] {
            await #expect(throws: (any Error).self, "\(statement)") { try await Self.sql(store, statement) }
        }
        if let postgres = store as? PostgresRunStore {
            for try await (update, delete) in try await postgres.client.query("""
                SELECT has_table_privilege('audit_log', 'UPDATE'), has_table_privilege('audit_log', 'DELETE')
                """).decode((Bool, Bool).self) {
                #expect(!update && !delete)
            }
            // With the grants given back, the trigger still refuses.
            try await postgres.client.query("GRANT UPDATE, DELETE, TRUNCATE ON audit_log TO CURRENT_USER")
            for statement in ["UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log", "TRUNCATE audit_log"] {
                await #expect(throws: (any Error).self, "\(statement)") { try await Self.sql(store, statement) }
            }
        }
        #expect(try await store.auditEntries(AuditQuery(run: record.id)).count == 4)
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("An erased run still verifies; content removed without an erasure does not", arguments: Kind.allCases)
    func erasure(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let erased = try await Self.walk(store)
        try await store.delete(id: erased.id, erasure: .erasure(reason: "withdrawn", by: .token("lab"), at: Date()))
        let entries = try await store.auditEntries(AuditQuery(run: erased.id)).sorted { $0.seq < $1.seq }
        #expect(entries.count == 5)
        #expect(entries.allSatisfy { $0.content == nil && $0.salt == nil })
        #expect(entries[3].contentHash.count == 64)
        #expect(entries.last?.action == AuditEntry.erasedAction && entries.last?.detail == #"{"reason":"withdrawn","began":"2027-01-15T08:00:00+00:00"}"#, "the erasure says when the run began")
        #expect(try await store.verifyAudit().problems.isEmpty)
        // Retention erases the same way.
        var finished = try await Self.walk(store)
        finished.run.finishReason = .completed
        finished.audit.pending = [Self.event("run.completed", at: 4)]
        _ = try await store.update(finished)
        #expect(try await store.deleteFinished(before: .distantFuture, erasure: .erasure(reason: "retention", by: .system("retention"),
                                                                                         at: Date())) == 1)
        #expect(try await store.verifyAudit().problems.isEmpty)
        guard Self.sqlKinds.contains(kind) else { return }
        let kept = try await Self.walk(store)
        try await Self.sql(store, "DELETE FROM audit_content WHERE id = (SELECT id FROM audit_log WHERE chain = '\(AuditEntry.chain(of: kept.id))' AND seq = 2)")
        let problems = try await store.verifyAudit().problems
        #expect(problems.count == 1 && problems.first?.kind == .content && problems.first?.seq == 2)
    }

    @Test("Two replicas writing at once keep a log that verifies")
    func twoReplicas() async throws {
        guard let replicas = try await RunStoreBehaviourTests.postgresReplicas(2) else { return }
        let runsPerReplica = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, replica) in replicas.enumerated() {
                for index in 0..<runsPerReplica {
                    group.addTask {
                        var record = RunStoreBehaviourTests.record(session: "r\(number)-\(index)")
                        record.audit.pending = [Self.event("run.created")]
                        record = try await replica.insert(record)
                        for step in 1...4 {
                            record.audit.pending = [Self.event("answer.saved", content: .json(.object(["after": .number(Double(step))])), at: Double(step))]
                            record = try await replica.update(record)
                        }
                        try await replica.appendAudit([AuditEvent("results.read", by: .token("r\(number)"), at: Date(), run: record.id)],
                                                      chain: AuditEntry.accessChain)
                        if index % 10 == 0 { _ = try await replica.anchorAudit(everything: index % 20 == 0, now: Date(), by: .system("anchor")) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let verifier = try await replicas[0].verifyAudit()
        #expect(verifier.problems.isEmpty)
        #expect(verifier.entries >= 2 * runsPerReplica * 6)
        let access = try await replicas[1].auditChainEntries(after: nil, chain: AuditEntry.accessChain, limit: 1000)
        #expect(access.map(\.seq) == Array(1...(2 * runsPerReplica)))
    }
}

/// The verifier alone, on entries made in memory.
@Suite("Audit verifier")
struct AuditVerifierTests {
    static func chain(_ count: Int) -> [AuditEntry] {
        let events = (0..<count).map { AuditEvent("answer.saved", by: .system("test"), at: Date(timeIntervalSince1970: Double($0)),
                                                   content: .json(.object(["after": .number(Double($0))]))) }
        return AuditEntry.seal(events, chain: "access", after: .genesis).0
    }

    static func problems(_ entries: [AuditEntry], recorded: [String: AuditHead] = [:]) -> [AuditProblem] {
        var verifier = AuditVerifier()
        for entry in entries { verifier.feed(entry) }
        verifier.check(recorded: recorded)
        verifier.finish()
        return verifier.problems
    }

    @Test("A sealed chain verifies, and each kind of change is named at its entry")
    func kinds() {
        let entries = Self.chain(5)
        #expect(Self.problems(entries, recorded: ["access": AuditHead(seq: 5, hash: entries[4].hash)]).isEmpty)
        var altered = entries
        altered[2].actor = "staff:someone else"
        #expect(Self.problems(altered).first.map { "\($0.kind) \($0.seq)" } == "altered 3")
        var removed = entries
        removed.remove(at: 1)
        #expect(Self.problems(removed).first.map { "\($0.kind) \($0.seq)" } == "removed 2")
        var changedContent = entries
        changedContent[3].content = #"{"after":99}"#
        #expect(Self.problems(changedContent).first.map { "\($0.kind) \($0.seq)" } == "content 4")
        let truncated = Array(entries.prefix(3))
        #expect(Self.problems(truncated, recorded: ["access": AuditHead(seq: 5, hash: entries[4].hash)]).first.map { "\($0.kind) \($0.seq)" }
            == "removed 4")
    }

    @Test("The content hash is salted: the same answer hashes differently in two entries")
    func salted() {
        let entries = Self.chain(1) + AuditEntry.seal([AuditEvent("answer.saved", by: .system("test"), at: Date(timeIntervalSince1970: 0),
                                                                  content: .json(.object(["after": .number(0)])))], chain: "other", after: .genesis).0
        #expect(entries[0].content == entries[1].content)
        #expect(entries[0].contentHash != entries[1].contentHash)
    }
}
