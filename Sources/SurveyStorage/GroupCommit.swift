import Dispatch
import Foundation
import GRDB
import Synchronization

/// Joins the writes of concurrent requests into one transaction, so one `fsync` serves many
/// answers. Each write runs in its own savepoint, so one that fails leaves the others in
/// place, and each caller is answered only after the transaction holding its write is
/// committed: durability is kept, not traded.
///
/// Writes wait in a list behind a lock held only to append or take; one serial queue drains
/// the list, running each batch synchronously on its own thread. A write therefore costs two
/// thread wake-ups (the drain, then the caller's task), however many writes share its batch.
final class GroupCommitter: Sendable {
    private let pool: DatabasePool
    /// Called on the drain's thread after each transaction is on disk.
    private let committed: @Sendable () -> Void
    private let drainQueue = DispatchQueue(label: "survey.sqlite.group-commit")
    private let state = Mutex(State())

    private struct State {
        var pending: [PendingWrite] = []
        var draining = false
    }

    init(pool: DatabasePool, committed: @escaping @Sendable () -> Void = {}) {
        self.pool = pool
        self.committed = committed
    }

    final class PendingWrite: @unchecked Sendable {
        let work: (Database) throws -> any Sendable
        var outcome: Result<any Sendable, any Error>?
        let continuation: CheckedContinuation<any Sendable, any Error>

        init(work: @escaping (Database) throws -> any Sendable, continuation: CheckedContinuation<any Sendable, any Error>) {
            self.work = work
            self.continuation = continuation
        }
    }

    /// Runs `work` in the next group; returns once that group is on disk.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            let pending = PendingWrite(work: { try work($0) }, continuation: continuation)
            let startDrain = state.withLock { state -> Bool in
                state.pending.append(pending)
                if state.draining { return false }
                state.draining = true
                return true
            }
            if startDrain { drainQueue.async { self.drain() } }
        }
        return value as! T
    }

    private func drain() {
        while true {
            let batch = state.withLock { state -> [PendingWrite] in
                if state.pending.isEmpty {
                    state.draining = false
                    return []
                }
                let batch = state.pending
                state.pending.removeAll(keepingCapacity: true)
                return batch
            }
            if batch.isEmpty { return }
            do {
                try pool.write { db in
                    if batch.count == 1, let pending = batch.first {
                        // Alone in its transaction: a failure rolls the transaction back, no savepoint needed.
                        pending.outcome = .success(try pending.work(db))
                        return
                    }
                    // Compiled once per connection, not once per write.
                    let begin = try db.cachedStatement(sql: "SAVEPOINT write")
                    let release = try db.cachedStatement(sql: "RELEASE SAVEPOINT write")
                    let rollback = try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT write")
                    for pending in batch {
                        try begin.execute()
                        do {
                            pending.outcome = .success(try pending.work(db))
                        } catch {
                            pending.outcome = .failure(error)
                            try rollback.execute()
                        }
                        try release.execute()
                    }
                }
                for pending in batch { pending.continuation.resume(with: pending.outcome ?? .failure(CancellationError())) }
                committed()
            } catch {
                // The transaction itself failed: none of its writes is on disk.
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
    }
}
