import Foundation
import GRDB
import SurveyCore
import Testing
@testable import SurveyStorage

/// The write-ahead log is copied back by the store's own checkpointer (the writer's automatic
/// checkpoint is off), and it starts again from its beginning instead of growing without end.
@Suite("SQLite store: checkpoints off the answer's path")
struct CheckpointerTests {
    /// The frames the log holds now, and how many of them are in the database file.
    static func log(_ path: String) throws -> (frames: Int, copied: Int) {
        let queue = try DatabaseQueue(path: path)
        return try queue.writeWithoutTransaction { db in
            let result = try db.checkpoint(.passive)
            return (result.walFrameCount, result.checkpointedFrameCount)
        }
    }

    @Test("The writer never checkpoints by itself: a commit leaves its frames in the log")
    func writerLeavesTheLog() async throws {
        let path = SQLiteVisitRowsTests.path()
        let store = try SQLiteRunStore.migrated(path: path)
        let autocheckpoint = try await store.pool.write { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") }
        #expect(autocheckpoint == 0)
        let copied = try store.checkpointer.copyNow()
        #expect(copied.frames == copied.copied)
    }

    static func logBytes(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? -1
    }

    @Test("Answers past many checkpoints: the log starts again instead of growing, and every answer reads back")
    func logStartsAgain() async throws {
        let path = SQLiteVisitRowsTests.path()
        let store = try SQLiteRunStore.migrated(path: path)
        var record = try await store.insert(RunStoreBehaviourTests.record())
        var step = 0
        func answer(_ count: Int) async throws {
            for _ in 0..<count {
                step += 1
                SQLiteVisitRowsTests.answered(&record, "q\(step)", value: "\(step % 5)", at: Double(step))
                record = try await store.update(record)
            }
        }
        // The log file only grows until the log starts again at its beginning: its size after
        // the first commits, before any checkpoint, says what a commit adds.
        let before = try Self.logBytes(path)
        try await answer(20)
        let perCommit = (try Self.logBytes(path) - before) / 20
        #expect(perCommit > 0)
        let commits = Checkpointer.defaultCommitsPerCheckpoint * 5
        try await answer(commits - 20)
        let grown = try Self.logBytes(path)
        #expect(grown < before + perCommit * commits / 2, "the log file is \(grown) bytes after \(commits) commits of \(perCommit)")
        let reopened = try SQLiteRunStore.migrated(path: path)
        #expect(try await reopened.record(id: record.id) == record)
    }
}
