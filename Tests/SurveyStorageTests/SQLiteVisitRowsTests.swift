import Foundation
import GRDB
import SurveyCore
import Testing
@testable import SurveyStorage

/// The SQLite store keeps a run as a header row and one row per visit, and keeps runs in
/// progress in memory; neither may change what a reader sees.
@Suite("SQLite store: visit rows and the record cache")
struct SQLiteVisitRowsTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString)/runs.sqlite").path
    }

    static func visitRows(_ path: String, run: UUID) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM visits WHERE run = ?", arguments: [run.uuidString]) ?? -1
        }
    }

    static func answered(_ record: inout RunRecord, _ step: String, value: String, at seconds: Double) {
        let date = record.updatedAt.addingTimeInterval(seconds)
        let index = record.run.cursor
        record.run.visits[index].results = [QuestionResult(identifier: record.run.visits[index].stepIdentifier, type: .choice,
                                                           startDate: date, endDate: date, answer: .choices([.string(value)]))]
        record.run.visits[index].isAnswered = true
        record.run.visits[index].endDate = date
        record.run.visits.append(StepVisit(stepIdentifier: step, startDate: date))
        record.run.cursor += 1
        record.updatedAt = date
    }

    @Test("Appending, editing an earlier visit and cutting the path short all read back the same after a reopen")
    func editsRoundTrip() async throws {
        let path = Self.path()
        let store = try SQLiteRunStore.migrated(path: path)
        var record = try await store.insert(RunStoreBehaviourTests.record())
        for step in 1...30 {
            Self.answered(&record, "q\(step)", value: "\(step % 5)", at: Double(step))
            record = try await store.update(record)
        }
        // An earlier answer changed, and the path after it dropped (as a branch change does).
        record.run.visits[3].results = []
        record.run.visits.removeSubrange(10...)
        record.run.cursor = 9
        record = try await store.update(record)
        #expect(try Self.visitRows(path, run: record.id) == 10)
        let reopened = try SQLiteRunStore.migrated(path: path)
        #expect(try await reopened.record(id: record.id) == record)
        #expect(try await reopened.activeRecord(session: record.sessionID, survey: record.surveyIdentifier) == record)
    }

    @Test("An answer that changes only the header keeps the columns runs are found by; a change to one of them is written")
    func headerOnlyUpdates() async throws {
        let path = Self.path()
        let store = try SQLiteRunStore.migrated(path: path)
        func reopened() throws -> SQLiteRunStore {
            let fresh = try SQLiteRunStore.migrated(path: path)
            fresh.cache.removeAll()
            return fresh
        }
        var record = try await store.insert(RunStoreBehaviourTests.record())
        Self.answered(&record, "q1", value: "a", at: 1)
        record = try await store.update(record)
        let ticket = ResumeTicket.make(now: record.updatedAt, lifetime: 3600)
        record.savedAt = record.updatedAt
        record.resume = ticket
        record = try await store.update(record)
        Self.answered(&record, "q2", value: "b", at: 2)
        record = try await store.update(record)
        #expect(try await reopened().record(resumeCode: try #require(ticket.code)) == record)
        #expect(try await reopened().record(resumeToken: ticket.token) == record)

        record.sessionID = "s2"
        record = try await store.update(record)
        #expect(try await reopened().activeRecord(session: "s2", survey: record.surveyIdentifier) == record)
        #expect(try await reopened().activeRecord(session: "s1", survey: record.surveyIdentifier) == nil)

        Self.answered(&record, "q3", value: "c", at: 3)
        record.run.finishReason = .completed
        record = try await store.update(record)
        #expect(try await reopened().lastFinishedRecord(session: "s2", survey: record.surveyIdentifier) == record)
        #expect(try await reopened().activeRecord(session: "s2", survey: record.surveyIdentifier) == nil)
        #expect(try await reopened().records(matching: RunQuery(status: "completed", limit: 10)).map(\.id) == [record.id])
    }

    @Test("A store that does not hold the stored version rewrites every visit, and the result is the same")
    func uncachedUpdate() async throws {
        let path = Self.path()
        let first = try SQLiteRunStore.migrated(path: path)
        var record = try await first.insert(RunStoreBehaviourTests.record())
        Self.answered(&record, "q1", value: "a", at: 1)
        record = try await first.update(record)
        let second = try SQLiteRunStore.migrated(path: path)
        second.cache.removeAll()
        var edited = try #require(try await second.record(id: record.id))
        second.cache.removeAll()
        edited.run.visits[0].page = 1
        Self.answered(&edited, "q2", value: "b", at: 2)
        edited = try await second.update(edited)
        #expect(try await SQLiteRunStore.migrated(path: path).record(id: record.id) == edited)
        #expect(try Self.visitRows(path, run: record.id) == 3)
    }

    @Test("A run written before visit rows existed is read whole after the migration")
    func migratesWholeStates() async throws {
        let path = Self.path()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var record = RunStoreBehaviourTests.record()
        Self.answered(&record, "q1", value: "a", at: 1)
        Self.answered(&record, "q2", value: "b", at: 2)
        do {
            try SQLiteRunStore(path: path).migrate(upTo: 3)
            let queue = try DatabaseQueue(path: path)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            let state = try encoder.encode(record.run)
            let written = record
            try await queue.write { db in
                try db.execute(sql: """
                    INSERT INTO runs (id, survey, session, finished, version, startedAt, updatedAt, state)
                    VALUES (?, ?, ?, 0, 1, ?, ?, ?)
                    """, arguments: [written.id.uuidString, written.surveyIdentifier, written.sessionID,
                                     written.run.startDate.timeIntervalSince1970, written.updatedAt.timeIntervalSince1970, state])
            }
        }
        let store = try SQLiteRunStore.migrated(path: path)
        record.version = 1
        #expect(try await store.record(id: record.id) == record)
        #expect(try Self.visitRows(path, run: record.id) == 3)
    }

    @Test("A write from elsewhere is never hidden by the cache: the stale writer gets a conflict, then reads the new version")
    func cacheNeverMasksAConflict() async throws {
        let path = Self.path()
        let mine = try SQLiteRunStore.migrated(path: path)
        var record = try await mine.insert(RunStoreBehaviourTests.record())
        let other = try SQLiteRunStore.migrated(path: path)
        var theirs = try #require(try await other.record(id: record.id))
        Self.answered(&theirs, "q1", value: "theirs", at: 1)
        theirs = try await other.update(theirs)
        Self.answered(&record, "q1", value: "mine", at: 1)
        await #expect(throws: RunStoreError.self) { _ = try await mine.update(record) }
        #expect(try await mine.activeRecord(session: record.sessionID, survey: record.surveyIdentifier) == theirs)
    }

    @Test("The cache keeps the newest version, lets finished runs go, follows a change of session, and stays within its size")
    func cacheRules() throws {
        let cache = RecordCache(capacity: 100)
        var record = RunStoreBehaviourTests.record(session: "a")
        record.version = 2
        cache.store(record)
        var older = record
        older.version = 1
        cache.store(older)
        #expect(cache.active(session: "a", survey: "demo")?.version == 2)
        var moved = record
        moved.version = 3
        moved.sessionID = "b"
        cache.store(moved)
        #expect(cache.active(session: "a", survey: "demo") == nil)
        #expect(cache.active(session: "b", survey: "demo") == moved)
        var finished = moved
        finished.version = 4
        finished.run.finishReason = .completed
        cache.store(finished)
        #expect(cache.record(id: record.id) == nil)
        for index in 0..<250 {
            var other = RunStoreBehaviourTests.record(session: "s\(index)")
            other.version = 1
            cache.store(other)
            _ = cache.active(session: "s0", survey: "demo")  // the first one stays in use
        }
        #expect(cache.count <= 100)
        #expect(cache.active(session: "s0", survey: "demo") != nil)
        #expect(cache.active(session: "s249", survey: "demo") != nil)
    }
}
