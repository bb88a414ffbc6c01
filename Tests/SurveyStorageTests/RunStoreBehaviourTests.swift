import Foundation
import JSON
import PostgresNIO
import SurveyCore
import Testing
@testable import SurveyStorage

/// The promises every store keeps, run against each implementation.
@Suite("Run stores")
struct RunStoreBehaviourTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory
        case sqlite
        case postgres
        /// The same store on run tables hash-partitioned by run id: PostgreSQL then refuses any
        /// key or unique constraint without the run id, as a distributed database (Citus) does.
        case postgresPartitioned
        var testDescription: String { rawValue }

        /// The stores to test: PostgreSQL when `SURVEY_TEST_POSTGRES_URL` names a server
        /// (the test command starts one); `REQUIRE_POSTGRES=1` makes its absence a failure.
        static var allCases: [Kind] {
            ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil
                || ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == "1"
                ? [.memory, .sqlite, .postgres, .postgresPartitioned] : [.memory, .sqlite]
        }
    }

    static func makeStore(_ kind: Kind) async throws -> any RunStore {
        switch kind {
        case .memory:
            return MemoryRunStore()
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runstore-\(UUID().uuidString)")
            return try SQLiteRunStore.migrated(path: folder.appendingPathComponent("runs.sqlite").path)
        case .postgres, .postgresPartitioned:
            let url = try #require(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"], "no PostgreSQL server for the tests")
            // Each store gets a schema of its own, so tests running side by side do not see each other's runs.
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let store = try PostgresRunStore(url: url + "?schema=" + schema + (kind == .postgresPartitioned ? "&partitions=4" : ""))
            // The server runs the client in its service group; here it runs until the tests end
            // (its idle connections close after a minute).
            Task { await store.client.run() }
            try await store.migrate()
            return store
        }
    }

    /// Stores on one PostgreSQL schema, as replicas sharing a database are; nil when the tests have no server.
    static func postgresReplicas(_ count: Int) async throws -> [PostgresRunStore]? {
        guard Kind.allCases.contains(.postgres) else { return nil }
        let url = try #require(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"])
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let replicas = try (0..<count).map { _ in try PostgresRunStore(url: url + "?schema=" + schema) }
        for replica in replicas {
            Task { await replica.client.run() }
            try await replica.migrate()
        }
        return replicas
    }

    static func record(session: String = "s1", survey: String = "demo", at seconds: Double = 0) -> RunRecord {
        let start = Date(timeIntervalSince1970: 1_800_000_000 + seconds)
        let run = TaskRun(taskIdentifier: survey, taskRunUUID: UUID(), startDate: start,
                          visits: [StepVisit(stepIdentifier: "intro", startDate: start)])
        return RunRecord(run: run, surveyIdentifier: survey, sessionID: session, updatedAt: start)
    }

    @Test("A new run reads back as written, at version 1", arguments: Kind.allCases)
    func insertAndRead(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        let written = try await store.insert(Self.record())
        #expect(written.version == 1)
        let read = try #require(try await store.record(id: written.id))
        #expect(read == written)
    }

    @Test("The subject and encounter an EHR gave read back as written, after updates too", arguments: Kind.allCases)
    func fhirContextIsKept(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        var record = Self.record(survey: "ehr")
        record.fhirContext = FHIRRunContext(
            subject: JSONObject([("reference", .string("Patient/p-1")), ("display", .string("Ana Pérez"))]),
            encounter: JSONObject([("identifier", .object(JSONObject([("system", .string("urn:visits")), ("value", .string("v-9"))])))]))
        var written = try await store.insert(record)
        written.run.cursor = 0
        written = try await store.update(written)
        // A listing reads the rows, not a cache of the records written.
        let listed = try await store.records(matching: RunQuery(survey: "ehr"))
        #expect(listed.map(\.fhirContext) == [record.fhirContext])
        #expect(try await store.record(id: record.id)?.fhirContext == record.fhirContext)
        _ = try await store.insert(Self.record(survey: "plain"))
        #expect(try await store.records(matching: RunQuery(survey: "plain")).first?.fhirContext == nil)
    }

    @Test("An update at the current version wins and bumps the version", arguments: Kind.allCases)
    func updateBumpsVersion(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        var record = try await store.insert(Self.record())
        record.run.visits.append(StepVisit(stepIdentifier: "q1", startDate: record.updatedAt.addingTimeInterval(1)))
        record.run.cursor = 1
        let updated = try await store.update(record)
        #expect(updated.version == 2)
        #expect(try await store.record(id: record.id)?.run.cursor == 1)
    }

    @Test("A stale write is refused with a conflict and changes nothing", arguments: Kind.allCases)
    func staleWriteConflicts(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        let original = try await store.insert(Self.record())
        var first = original
        first.run.cursor = 0
        first.run.visits[0].isAnswered = true
        _ = try await store.update(first)
        var second = original
        second.run.visits.append(StepVisit(stepIdentifier: "other", startDate: original.updatedAt))
        await #expect(throws: RunStoreError.self) { _ = try await store.update(second) }
        #expect(try await store.record(id: original.id)?.run.visits.count == 1)
    }

    @Test("Two writers racing on one version: exactly one wins", arguments: Kind.allCases)
    func concurrentWritersOneWins(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        let original = try await store.insert(Self.record())
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    var attempt = original
                    attempt.run.visits[0].page = index
                    return (try? await store.update(attempt)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.record(id: original.id)?.version == 2)
    }

    @Test("The session's active run and last finished run are found by session and survey", arguments: Kind.allCases)
    func lookupBySession(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        var finished = try await store.insert(Self.record(at: 0))
        finished.run.finishReason = .completed
        finished.run.endDate = finished.updatedAt
        finished.updatedAt = finished.updatedAt.addingTimeInterval(5)
        finished = try await store.update(finished)
        let active = try await store.insert(Self.record(at: 10))
        _ = try await store.insert(Self.record(session: "s2", at: 20))
        _ = try await store.insert(Self.record(survey: "other", at: 30))
        #expect(try await store.activeRecord(session: "s1", survey: "demo")?.id == active.id)
        #expect(try await store.lastFinishedRecord(session: "s1", survey: "demo")?.id == finished.id)
        #expect(try await store.activeRecord(session: "s3", survey: "demo") == nil)
    }

    @Test("A deleted run is gone", arguments: Kind.allCases)
    func deleteRemoves(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        let record = try await store.insert(Self.record())
        try await store.delete(id: record.id, erasure: .erasure(reason: "test", by: .system("test"), at: Date()))
        #expect(try await store.record(id: record.id) == nil)
        #expect(try await store.activeRecord(session: "s1", survey: "demo") == nil)
    }

    @Test("Inserting the same run twice is refused", arguments: Kind.allCases)
    func duplicateInsert(_ kind: Kind) async throws {
        let store = try await Self.makeStore(kind)
        let record = try await store.insert(Self.record())
        await #expect(throws: RunStoreError.self) { _ = try await store.insert(record) }
    }

    @Test("The SQLite file keeps runs across a reopen, in WAL mode with synchronous FULL")
    func sqliteIsDurable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runstore-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("runs.sqlite").path
        var id: UUID
        do {
            let store = try SQLiteRunStore.migrated(path: path)
            id = try await store.insert(Self.record()).id
        }
        let reopened = try SQLiteRunStore.migrated(path: path)
        #expect(try await reopened.record(id: id) != nil)
        let (mode, synchronous) = try await reopened.pragmas()
        #expect(mode == "wal")
        #expect(synchronous == 2)
    }
}

@Suite("Run stores: resume tickets and queries")
struct RunStoreQueryTests {
    @Test("A saved run is found by its resume code and link token", arguments: RunStoreBehaviourTests.Kind.allCases)
    func resumeLookup(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var record = try await store.insert(RunStoreBehaviourTests.record())
        let ticket = ResumeTicket.make(now: record.updatedAt, lifetime: 3600)
        record.savedAt = record.updatedAt
        record.resume = ticket
        _ = try await store.update(record)
        #expect(try await store.record(resumeCode: try #require(ticket.code))?.id == record.id)
        #expect(try await store.record(resumeToken: ticket.token)?.resume == ticket)
        #expect(try await store.record(resumeCode: "ZZZZZZZZ") == nil)
        #expect(try await store.record(id: record.id)?.status == "saved")
    }

    @Test("A ticket without a code (a run made through the API) is found by its link only", arguments: RunStoreBehaviourTests.Kind.allCases)
    func codelessTicket(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var first = RunStoreBehaviourTests.record(session: "a")
        first.resume = ResumeTicket.make(now: first.updatedAt, lifetime: 3600, withCode: false)
        var second = RunStoreBehaviourTests.record(session: "b")
        second.resume = ResumeTicket.make(now: second.updatedAt, lifetime: 3600, withCode: false)
        _ = try await store.insert(first)
        _ = try await store.insert(second)
        #expect(first.resume?.code == nil)
        #expect(try await store.record(resumeToken: try #require(first.resume?.token))?.resume == first.resume)
        #expect(try await store.record(resumeToken: try #require(second.resume?.token))?.id == second.id)
    }

    @Test("Runs started but never answered are deleted after a while; answered, saved, API-made and finished ones stay",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func unansweredRunsAreDeleted(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let empty = try await store.insert(RunStoreBehaviourTests.record(session: "empty", at: 0))
        var answered = RunStoreBehaviourTests.record(session: "answered", at: 0)
        answered.run.visits[0].results = [QuestionResult(identifier: "q1", type: .boolean, startDate: answered.updatedAt,
                                                         endDate: answered.updatedAt, answer: .boolean(true))]
        answered = try await store.insert(answered)
        var saved = RunStoreBehaviourTests.record(session: "saved", at: 0)
        saved.savedAt = saved.updatedAt
        saved = try await store.insert(saved)
        var external = RunStoreBehaviourTests.record(session: "unclaimed", at: 0)
        external.externalID = "P-1"
        external = try await store.insert(external)
        var finished = RunStoreBehaviourTests.record(session: "finished", at: 0)
        finished.run.finishReason = .completed
        finished = try await store.insert(finished)
        let recent = try await store.insert(RunStoreBehaviourTests.record(session: "recent", at: 500))
        // An empty run that gets its first answer by an update is no longer unanswered.
        var later = try await store.insert(RunStoreBehaviourTests.record(session: "later", at: 0))
        later.run.visits[0].results = answered.run.visits[0].results
        later = try await store.update(later)

        let cutoff = empty.updatedAt.addingTimeInterval(100)
        #expect(try await store.deleteUnanswered(before: cutoff, erasure: .erasure(reason: "test", by: .system("test"), at: Date())) == 1)
        #expect(try await store.record(id: empty.id) == nil)
        for kept in [answered, saved, external, finished, recent, later] {
            #expect(try await store.record(id: kept.id) != nil)
        }
        #expect(try await store.deleteUnanswered(before: cutoff, erasure: .erasure(reason: "test", by: .system("test"), at: Date())) == 0)
    }

    @Test("Runs are listed by survey, status and time, newest first", arguments: RunStoreBehaviourTests.Kind.allCases)
    func listing(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var done = try await store.insert(RunStoreBehaviourTests.record(at: 0))
        done.run.finishReason = .completed
        done.updatedAt = done.updatedAt.addingTimeInterval(100)
        done = try await store.update(done)
        let open = try await store.insert(RunStoreBehaviourTests.record(at: 50))
        let other = try await store.insert(RunStoreBehaviourTests.record(survey: "other", at: 60))
        #expect(try await store.records(matching: RunQuery()).map(\.id) == [done.id, other.id, open.id])
        #expect(try await store.records(matching: RunQuery(survey: "demo")).map(\.id) == [done.id, open.id])
        #expect(try await store.records(matching: RunQuery(status: "completed")).map(\.id) == [done.id])
        #expect(try await store.records(matching: RunQuery(status: "inProgress", updatedSince: open.updatedAt)).map(\.id) == [other.id, open.id])
        #expect(try await store.records(matching: RunQuery(limit: 1)).count == 1)
    }

    @Test("An export pages through a survey's runs by identifier: each exactly once, in order, with the filters kept",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func paging(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var inserted: [String] = []
        for index in 0..<23 {
            var record = RunStoreBehaviourTests.record(at: Double(index))
            if index % 4 == 0 { record.run.finishReason = .completed }
            let stored = try await store.insert(record)
            if index % 4 == 0 { inserted.append(stored.id.uuidString.lowercased()) }
        }
        _ = try await store.insert(RunStoreBehaviourTests.record(survey: "other", at: 99))
        var pages: [[String]] = []
        try await store.forEachPage(matching: RunQuery(survey: "demo", status: "completed", limit: 2)) { records in
            pages.append(records.map { $0.id.uuidString.lowercased() })
            #expect(records.allSatisfy { $0.run.visits.count == 1 }, "each run comes with its visits")
        }
        #expect(pages.map(\.count) == [2, 2, 2])
        #expect(pages.flatMap { $0 } == inserted.sorted())
        var all = 0
        try await store.forEachPage(matching: RunQuery(survey: "demo", limit: 5)) { all += $0.count }
        #expect(all == 23)
    }

    @Test("A run keeps its survey version; each version's definition is kept once, oldest first",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func surveyVersions(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var record = RunStoreBehaviourTests.record()
        record.surveyVersion = "0123456789abcdef"
        let stored = try await store.insert(record)
        #expect(try await store.record(id: stored.id)?.surveyVersion == "0123456789abcdef")
        #expect(try await store.records(matching: RunQuery()).first?.surveyVersion == "0123456789abcdef")
        try await store.keepSurveyVersion(survey: "demo", version: "v1", definition: "{\"identifier\": \"demo\"}")
        try await Task.sleep(for: .milliseconds(5))
        try await store.keepSurveyVersion(survey: "demo", version: "v2", definition: "{}")
        try await store.keepSurveyVersion(survey: "demo", version: "v1", definition: "changed")
        try await store.keepSurveyVersion(survey: "other", version: "v9", definition: "{}")
        let versions = try await store.surveyVersions(survey: "demo")
        #expect(versions.map(\.version) == ["v1", "v2"])
        #expect(versions.first?.definition == "{\"identifier\": \"demo\"}", "a version is kept as first seen")
    }

    @Test("A kiosk device signed out is read back by every reader since, until its cookie would have expired",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func kioskRevocations(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.revokeKioskDevice(KioskRevocation(device: "device-a", revokedAt: start, until: start.addingTimeInterval(3600)))
        try await store.revokeKioskDevice(KioskRevocation(device: "device-b", revokedAt: start.addingTimeInterval(10),
                                                          until: start.addingTimeInterval(60)))
        // Again changes nothing: the first revocation stands.
        try await store.revokeKioskDevice(KioskRevocation(device: "device-a", revokedAt: start.addingTimeInterval(20),
                                                          until: start.addingTimeInterval(30)))
        let all = try await store.kioskRevocations(since: .distantPast, now: start.addingTimeInterval(20))
        #expect(all.map(\.device) == ["device-a", "device-b"])
        #expect(all.first?.until == start.addingTimeInterval(3600))
        #expect(try await store.kioskRevocations(since: start.addingTimeInterval(5), now: start.addingTimeInterval(20)).map(\.device) == ["device-b"])
        // Past its time a revocation is no longer returned, and a later one clears it away.
        #expect(try await store.kioskRevocations(since: .distantPast, now: start.addingTimeInterval(120)).map(\.device) == ["device-a"])
        try await store.revokeKioskDevice(KioskRevocation(device: "device-c", revokedAt: start.addingTimeInterval(120),
                                                          until: start.addingTimeInterval(7200)))
        #expect(try await store.kioskRevocations(since: .distantPast, now: start).map(\.device) == ["device-a", "device-c"])
    }

    @Test("Codes are eight characters from an alphabet without look-alikes, read in any case")
    func codes() {
        for _ in 0..<200 {
            let code = ResumeTicket.make(now: Date(), lifetime: 1).code ?? ""
            #expect(code.count == 8)
            #expect(!code.contains { "01OIL".contains($0) })
            #expect(ResumeTicket.normalize(code.lowercased()) == code)
        }
        #expect(ResumeTicket.normalize("abcd-2345") == "ABCD2345")
        #expect(ResumeTicket.normalize("ABCD 0345") == nil)
        #expect(ResumeTicket.normalize("ABC") == nil)
    }
}

extension SQLiteRunStore {
    /// A store on the file at `path`, its schema migrated, as the server opens one at start.
    static func migrated(path: String) throws -> SQLiteRunStore {
        let store = try SQLiteRunStore(path: path)
        try store.migrate()
        return store
    }
}

@Suite("SQLite group commit")
struct GroupCommitTests {
    @Test("Two hundred concurrent writes all reach the file, and a failing one leaves the others in place")
    func concurrentWritesAreAllDurable() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID()).sqlite").path
        let store = try SQLiteRunStore.migrated(path: path)
        let duplicate = try await store.insert(RunStoreBehaviourTests.record())
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let record = index == 100 ? duplicate : RunStoreBehaviourTests.record(session: "s\(index)")
                    return (try? await store.insert(record)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 199)
        let reopened = try SQLiteRunStore.migrated(path: path)
        #expect(try await reopened.records(matching: RunQuery(limit: 1000)).count == 200)
    }
}

@Suite("Run stores: the webhook outbox")
struct OutboxTests {
    @Test("An event is queued with its change, claimed once per lease, retried, and gone when delivered",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func outboxLifecycle(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var record = try await store.insert(RunStoreBehaviourTests.record())
        record.run.finishReason = .completed
        record.updatedAt = now
        let stale = record
        record = try await store.update(record, enqueuing: #"{"event":"run.completed"}"#)
        // A stale write queues nothing.
        await #expect(throws: RunStoreError.self) { _ = try await store.update(stale, enqueuing: "{}") }
        let claimed = try await store.claimDueEvents(now: now, lease: 60, limit: 10)
        #expect(claimed.count == 1)
        #expect(claimed.first?.payload == #"{"event":"run.completed"}"#)
        #expect(claimed.first?.runID == record.id)
        // Leased: another replica does not get it meanwhile.
        #expect(try await store.claimDueEvents(now: now.addingTimeInterval(1), lease: 60, limit: 10).isEmpty)
        let event = try #require(claimed.first)
        try await store.eventFailed(event, attempts: 1, nextAttemptAt: now.addingTimeInterval(2))
        #expect(try await store.claimDueEvents(now: now.addingTimeInterval(1), lease: 60, limit: 10).isEmpty)
        let retried = try await store.claimDueEvents(now: now.addingTimeInterval(3), lease: 60, limit: 10)
        #expect(retried.map(\.id) == [event.id])
        #expect(retried.first?.attempts == 1)
        try await store.eventDelivered(event)
        #expect(try await store.claimDueEvents(now: now.addingTimeInterval(1000), lease: 60, limit: 10).isEmpty)
    }
}
