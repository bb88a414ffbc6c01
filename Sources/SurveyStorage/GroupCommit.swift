import Foundation
import GRDB

/// Joins the writes of concurrent requests into one transaction, so one `fsync` (about 7 ms
/// on this disk with `synchronous=FULL`) serves many answers. Each write runs in its own
/// savepoint, so one that fails leaves the others in place, and each caller is answered only
/// after the transaction holding its write is committed: durability is kept, not traded.
actor GroupCommitter {
    private let pool: DatabasePool
    private var queue: [PendingWrite] = []
    private var draining = false

    init(pool: DatabasePool) {
        self.pool = pool
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
            queue.append(PendingWrite(work: { try work($0) }, continuation: continuation))
            if !draining {
                draining = true
                Task { await self.drain() }
            }
        }
        return value as! T
    }

    private func drain() async {
        while !queue.isEmpty {
            let batch = queue
            queue.removeAll()
            do {
                try await pool.write { db in
                    for pending in batch {
                        do {
                            try db.inSavepoint {
                                pending.outcome = .success(try pending.work(db))
                                return .commit
                            }
                        } catch {
                            pending.outcome = .failure(error)
                        }
                    }
                }
                for pending in batch { pending.continuation.resume(with: pending.outcome ?? .failure(CancellationError())) }
            } catch {
                // The transaction itself failed: none of its writes is on disk.
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
        draining = false
    }
}
