import Foundation
import SurveyCore
import Synchronization

/// The runs in progress that a store has read or written lately, kept in memory so a step page
/// or an answer costs no database read.
///
/// Only a store whose file no other process writes may keep one (the SQLite store: one server
/// per file); replicas sharing PostgreSQL do not. Entries are set only after their write has
/// committed, a newer version is never replaced by an older one, and a conflicting write
/// drops the entry so the next read goes to the database. The lock is held only around the
/// dictionary operations, never across I/O. Its size is counted in visits (a long survey's
/// run weighs more than a short one's); past `capacity`, the least recently used runs are let
/// go until a tenth of it is free.
final class RecordCache: Sendable {
    private struct Key: Hashable {
        let session: String
        let survey: String
    }

    private struct Entry {
        var record: RunRecord
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var keyOfRun: [UUID: Key] = [:]
        var tick: UInt64 = 0
        var weight = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 10)
    }

    var count: Int { state.withLock { $0.entries.count } }
    var weight: Int { state.withLock { $0.weight } }

    private static func weight(of record: RunRecord) -> Int { max(1, record.run.visits.count) }

    /// The session's run in progress, if held.
    func active(session: String, survey: String) -> RunRecord? {
        state.withLock { state in
            let key = Key(session: session, survey: survey)
            guard var entry = state.entries[key] else { return nil }
            state.tick += 1
            entry.lastUse = state.tick
            state.entries[key] = entry
            return entry.record
        }
    }

    /// The held version of a run, whatever its session.
    func record(id: UUID) -> RunRecord? {
        state.withLock { state in
            state.keyOfRun[id].flatMap { state.entries[$0]?.record }
        }
    }

    /// Keeps a record just read or written (dropping it when it is no longer in progress).
    func store(_ record: RunRecord) {
        state.withLock { state in
            if let oldKey = state.keyOfRun[record.id], let held = state.entries[oldKey] {
                if held.record.version > record.version { return }
                state.entries[oldKey] = nil
                state.keyOfRun[record.id] = nil
                state.weight -= Self.weight(of: held.record)
            }
            guard !record.run.isFinished else { return }
            let key = Key(session: record.sessionID, survey: record.surveyIdentifier)
            if let displaced = state.entries[key], displaced.record.id != record.id {
                state.keyOfRun[displaced.record.id] = nil
                state.weight -= Self.weight(of: displaced.record)
            }
            state.tick += 1
            state.entries[key] = Entry(record: record, lastUse: state.tick)
            state.keyOfRun[record.id] = key
            state.weight += Self.weight(of: record)
            if state.weight > capacity { Self.evict(&state, keeping: capacity - capacity / 10) }
        }
    }

    /// Forgets a run (deleted, or written elsewhere in a way the cache cannot follow).
    func forget(id: UUID) {
        state.withLock { state in
            if let key = state.keyOfRun.removeValue(forKey: id), let entry = state.entries.removeValue(forKey: key) {
                state.weight -= Self.weight(of: entry.record)
            }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    private static func evict(_ state: inout State, keeping: Int) {
        for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard state.weight > keeping else { return }
            state.entries[key] = nil
            state.keyOfRun[entry.record.id] = nil
            state.weight -= weight(of: entry.record)
        }
    }
}
