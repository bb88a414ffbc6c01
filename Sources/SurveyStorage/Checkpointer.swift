import Dispatch
import GRDB
import Synchronization

/// Copies the write-ahead log back into the database file, mostly off the answers' path.
///
/// SQLite's own checkpoint runs on the connection that commits, once the log passes 1,000
/// pages: the answers of the next groups wait while the whole log is copied and the file
/// synced. Here the writer never checkpoints by itself (`wal_autocheckpoint = 0`). After every
/// `commitsPerCheckpoint` commits a connection of its own, on its own thread, runs a PASSIVE
/// checkpoint, which waits for neither the writer nor a reader, and copies what the log holds.
/// Writes go on meanwhile, so that checkpoint never quite catches up, and a log that is never
/// caught up never starts again from its beginning: it grew without end (214 MB in a minute
/// of steady answers) and the answers' tail doubled. So once the
/// background copy is done, the writer, between two groups, copies the few frames written
/// since (a PASSIVE checkpoint on its own connection, which has no writer to wait for), and its
/// next transaction starts the log again.
final class Checkpointer: Sendable {
    /// About SQLite's 1,000 pages at the four to six pages an answer's group writes.
    static let defaultCommitsPerCheckpoint = 200
    let commitsPerCheckpoint: Int

    private let connection: DatabaseQueue
    private let writer: DatabasePool
    private let queue = DispatchQueue(label: "survey.sqlite.checkpoint", qos: .utility)
    private let state = Mutex(State())

    private struct State {
        var commits = 0
        var running = false
        /// The background copy is done: the writer copies the rest between two groups.
        var finishDue = false
    }

    init(path: String, writer: DatabasePool, commitsPerCheckpoint: Int = Checkpointer.defaultCommitsPerCheckpoint) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "checkpoint"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.writer = writer
        self.commitsPerCheckpoint = commitsPerCheckpoint
    }

    /// A transaction was committed; called on the writer's side, between two groups. Starts the
    /// background copy when enough commits have been, and finishes the last one's.
    func committed() {
        let (start, finish) = state.withLock { state -> (Bool, Bool) in
            state.commits += 1
            let finish = state.finishDue
            state.finishDue = false
            guard !state.running, state.commits >= commitsPerCheckpoint else { return (false, finish) }
            state.running = true
            state.commits = 0
            return (true, finish)
        }
        if finish { _ = try? writer.writeWithoutTransaction { try $0.checkpoint(.passive) } }
        if start { queue.async { self.checkpoint() } }
    }

    /// The background copy, now, waited for (tests).
    @discardableResult
    func copyNow() throws -> (frames: Int, copied: Int) {
        try queue.sync { try copy() }
    }

    private func checkpoint() {
        let copied = (try? copy())?.copied ?? 0
        state.withLock { state in
            state.running = false
            state.finishDue = copied > 0
        }
    }

    private func copy() throws -> (frames: Int, copied: Int) {
        try connection.writeWithoutTransaction { db in
            let passive = try db.checkpoint(.passive)
            return (passive.walFrameCount, passive.checkpointedFrameCount)
        }
    }
}
