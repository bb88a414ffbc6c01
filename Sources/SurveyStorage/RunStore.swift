import Foundation
import SurveyCore

/// One stored run: the run state with whose session and survey it belongs to, and a version
/// that every write checks, so two writers never lose each other's update.
public struct RunRecord: Sendable, Hashable {
    public var run: TaskRun
    public var surveyIdentifier: String
    /// The participant's session (a random identifier, never shown in a URL).
    public var sessionID: String
    public var version: Int
    public var updatedAt: Date

    public init(run: TaskRun, surveyIdentifier: String, sessionID: String, version: Int = 0, updatedAt: Date) {
        self.run = run
        self.surveyIdentifier = surveyIdentifier
        self.sessionID = sessionID
        self.version = version
        self.updatedAt = updatedAt
    }

    public var id: UUID { run.taskRunUUID }
}

/// Why a store refused a write.
public struct RunStoreError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case conflict
        case duplicate
        case unavailable(String)
    }

    let kind: Kind

    /// Someone else wrote the run first; read it again and retry or show the current step.
    public static let conflict = RunStoreError(kind: .conflict)
    public static let duplicate = RunStoreError(kind: .duplicate)
    static func unavailable(_ reason: String) -> RunStoreError { RunStoreError(kind: .unavailable(reason)) }

    public var isConflict: Bool {
        if case .conflict = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case .conflict: return "The run was changed by another request."
        case .duplicate: return "A run with this identifier already exists."
        case .unavailable(let reason): return "The run store is unavailable: \(reason)"
        }
    }
}

/// Where runs live. Every implementation keeps the same promises, and one behaviour suite
/// checks them all: a write returns only once it is durable, and a write whose expected
/// version is stale fails with `RunStoreError.conflict`.
public protocol RunStore: Sendable {
    /// Stores a new run at version 1.
    func insert(_ record: RunRecord) async throws -> RunRecord
    /// Replaces a run if it is still at `record.version`; returns it at the next version.
    func update(_ record: RunRecord) async throws -> RunRecord
    func record(id: UUID) async throws -> RunRecord?
    /// The session's run of a survey that has not finished, if any (the newest).
    func activeRecord(session: String, survey: String) async throws -> RunRecord?
    /// The session's most recently finished run of a survey.
    func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord?
    /// Deletes a run and its answers.
    func delete(id: UUID) async throws
}

/// A store in memory, for tests and previews.
public actor MemoryRunStore: RunStore {
    private var records: [UUID: RunRecord] = [:]

    public init() {}

    public func insert(_ record: RunRecord) throws -> RunRecord {
        guard records[record.id] == nil else { throw RunStoreError.duplicate }
        var stored = record
        stored.version = 1
        records[record.id] = stored
        return stored
    }

    public func update(_ record: RunRecord) throws -> RunRecord {
        guard let current = records[record.id], current.version == record.version else { throw RunStoreError.conflict }
        var stored = record
        stored.version = record.version + 1
        records[record.id] = stored
        return stored
    }

    public func record(id: UUID) -> RunRecord? { records[id] }

    public func activeRecord(session: String, survey: String) -> RunRecord? {
        records.values.filter { $0.sessionID == session && $0.surveyIdentifier == survey && !$0.run.isFinished }
            .max { $0.updatedAt < $1.updatedAt }
    }

    public func lastFinishedRecord(session: String, survey: String) -> RunRecord? {
        records.values.filter { $0.sessionID == session && $0.surveyIdentifier == survey && $0.run.isFinished }
            .max { $0.updatedAt < $1.updatedAt }
    }

    public func delete(id: UUID) {
        records[id] = nil
    }
}
