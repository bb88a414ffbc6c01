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
    /// When the participant chose "Save for later"; cleared when they resume.
    public var savedAt: Date?
    /// How a saved run is resumed on another device, while it is valid.
    public var resume: ResumeTicket?
    /// The researcher's identifier for the participant, when the run was made through the API.
    public var externalID: String?
    /// Where the participant goes on completion, when the run was made through the API.
    public var returnURL: String?
    /// The version of the survey the run was made with (`SurveyTask.version`); nil for runs
    /// stored before versions were kept.
    public var surveyVersion: String?
    /// The subject and encounter an EHR gave when it started the run through the API.
    public var fhirContext: FHIRRunContext?
    /// The visits and resume code as the store last read or wrote them at this version, so an
    /// update writes only what changed. Not part of the record's value.
    public var storedVisits = StoredState()
    /// The run's audit chain: its head as stored, and the events the next write records with
    /// the change (in the same transaction: a change whose entry cannot be written does not happen).
    public var audit = AuditTrail()

    public init(run: TaskRun, surveyIdentifier: String, sessionID: String, version: Int = 0, updatedAt: Date, savedAt: Date? = nil,
                resume: ResumeTicket? = nil, externalID: String? = nil, returnURL: String? = nil, surveyVersion: String? = nil,
                fhirContext: FHIRRunContext? = nil) {
        self.surveyVersion = surveyVersion
        self.fhirContext = fhirContext
        self.run = run
        self.surveyIdentifier = surveyIdentifier
        self.sessionID = sessionID
        self.version = version
        self.updatedAt = updatedAt
        self.savedAt = savedAt
        self.resume = resume
        self.externalID = externalID
        self.returnURL = returnURL
    }

    /// The run's status for researchers: in progress, saved, or its finish reason.
    public var status: String {
        if let reason = run.finishReason { return reason.rawValue }
        return savedAt == nil ? "inProgress" : FinishReason.saved.rawValue
    }

    public var id: UUID { run.taskRunUUID }

    /// True once any question of the run has a result (an answer, or a skip). Runs that were
    /// started but never answered, and not saved or made through the API, are deleted after a while.
    public var hasAnswers: Bool {
        run.visits.contains { !$0.results.isEmpty }
    }

    /// True while the run may be deleted as started but never answered.
    public var isUnanswered: Bool {
        !run.isFinished && savedAt == nil && externalID == nil && !hasAnswers
    }
}

/// A long link token, and for a run the participant saved a short code, that resume a run
/// until they expire.
public struct ResumeTicket: Sendable, Hashable {
    /// Eight characters from an alphabet without look-alikes, stored upper case; only a run
    /// the participant saved has one (a run made through the API has its start link only).
    public var code: String?
    /// A random token for the resume link, too long to guess.
    public var token: String
    public var expiresAt: Date

    public init(code: String?, token: String, expiresAt: Date) {
        self.code = code
        self.token = token
        self.expiresAt = expiresAt
    }

    /// Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L).
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    /// A new ticket; `withCode` gives it a short code as well as the link token.
    public static func make(now: Date, lifetime: TimeInterval, withCode: Bool = true) -> ResumeTicket {
        var generator = SystemRandomNumberGenerator()
        let code = withCode ? String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }) : nil
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return ResumeTicket(code: code, token: token, expiresAt: now.addingTimeInterval(lifetime))
    }

    /// A code as a participant may type it: any case, with spaces or dashes; nil if it cannot be one.
    public static func normalize(_ typed: String) -> String? {
        let cleaned = typed.uppercased().filter { !" -".contains($0) }
        guard cleaned.count == 8, cleaned.allSatisfy(alphabet.contains) else { return nil }
        return cleaned
    }
}

/// Which runs a researcher lists.
public struct RunQuery: Sendable {
    public var survey: String?
    /// `inProgress`, `saved`, `completed`, `discarded`…
    public var status: String?
    public var updatedSince: Date?
    public var limit: Int
    /// When set, runs come in the order of their identifiers (lower-case UUID text), after this
    /// one: an export reads a page at a time, each page taking up where the last ended, however
    /// the runs change meanwhile. When nil, the most recently updated come first.
    public var afterID: String?

    public init(survey: String? = nil, status: String? = nil, updatedSince: Date? = nil, limit: Int = 100, afterID: String? = nil) {
        self.survey = survey
        self.status = status
        self.updatedSince = updatedSince
        self.limit = limit
        self.afterID = afterID
    }

    func matches(_ record: RunRecord) -> Bool {
        (survey == nil || record.surveyIdentifier == survey) && (status == nil || record.status == status)
            && (updatedSince.map { record.updatedAt >= $0 } ?? true)
            && (afterID.map { record.id.uuidString.lowercased() > $0 } ?? true)
    }
}

extension RunStore {
    /// Every run matching a query, in pages of `query.limit` in identifier order, handed to
    /// `body` one page at a time: memory stays bounded by a page, whatever the count.
    public func forEachPage(matching query: RunQuery, _ body: ([RunRecord]) async throws -> Void) async throws {
        var page = query
        page.afterID = query.afterID ?? ""
        while true {
            let records = try await records(matching: page)
            guard let last = records.last else { return }
            try await body(records)
            guard records.count == page.limit else { return }
            page.afterID = last.id.uuidString.lowercased()
        }
    }
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
    public static func unavailable(_ reason: String) -> RunStoreError { RunStoreError(kind: .unavailable(reason)) }

    public var isConflict: Bool {
        if case .conflict = kind { return true }
        return false
    }

    /// A run with the same identifier was stored first.
    public var isDuplicate: Bool {
        if case .duplicate = kind { return true }
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
///
/// Opening a store does not touch its schema: `migrate()` creates or updates it, and is called
/// once at start (by the server before it accepts requests, or by `survey migrate`) before any
/// other method.
public protocol RunStore: PanelStore, DashboardStore {
    /// Creates or updates the schema; safe to call again, and from several replicas at once.
    func migrate() async throws
    /// Stores a new run at version 1.
    func insert(_ record: RunRecord) async throws -> RunRecord
    /// Replaces a run if it is still at `record.version`; returns it at the next version.
    func update(_ record: RunRecord) async throws -> RunRecord
    func record(id: UUID) async throws -> RunRecord?
    /// The session's run of a survey that has not finished, if any (the newest).
    func activeRecord(session: String, survey: String) async throws -> RunRecord?
    /// The session's most recently finished run of a survey.
    func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord?
    /// Deletes a run and its answers, and erases the content of its audit chain, recording `erasure`.
    func delete(id: UUID, erasure: AuditEvent) async throws
    /// The run a resume code or link token belongs to.
    func record(resumeCode: String) async throws -> RunRecord?
    func record(resumeToken: String) async throws -> RunRecord?
    /// Runs matching a query, most recently updated first.
    func records(matching query: RunQuery) async throws -> [RunRecord]
    /// The runs of these identifiers that exist, in no particular order, read from the store
    /// (a run read this way is not kept among the runs in progress a store may hold in memory).
    func records(ids: [UUID]) async throws -> [RunRecord]
    /// Deletes finished runs (completed, discarded…) last changed before a date, erasing each
    /// one's audit content with `erasure`; returns how many.
    func deleteFinished(before date: Date, erasure: AuditEvent) async throws -> Int
    /// Deletes runs that are `isUnanswered` and were last changed before a date, as `deleteFinished`.
    func deleteUnanswered(before date: Date, erasure: AuditEvent) async throws -> Int
    /// Like `update`, and in the same transaction queues an outbox event (a completion webhook),
    /// so the event exists exactly when the change does.
    func update(_ record: RunRecord, enqueuing payload: String) async throws -> RunRecord
    /// Claims up to `limit` events due at `now` for `lease` seconds, so replicas do not deliver
    /// the same event at the same time.
    func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent]
    /// The event was delivered: it leaves the outbox.
    func eventDelivered(_ event: OutboxEvent) async throws
    /// The delivery failed: try again at `nextAttemptAt`.
    func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) async throws
    /// Keeps a version of a survey's definition (its JSON), once per version, so runs made with
    /// it can be exported after the file changed.
    func keepSurveyVersion(survey: String, version: String, definition: String) async throws
    /// The versions kept of a survey, oldest first.
    func surveyVersions(survey: String) async throws -> [SurveyVersionRecord]
    /// Records a kiosk device staff signed out (once; again changes nothing), and forgets
    /// revocations whose `until` has passed.
    func revokeKioskDevice(_ revocation: KioskRevocation) async throws
    /// Revocations made at or after `since` and not yet past their `until` at `now`.
    func kioskRevocations(since: Date, now: Date) async throws -> [KioskRevocation]
    /// Keeps a document made for a run; `RunStoreError.duplicate` when the run has one of that kind.
    func insertDocument(_ document: RunDocument) async throws
    /// A run's document of a kind, as it was made.
    func document(run: UUID, kind: RunDocument.Kind) async throws -> RunDocument?
    /// Appends events to a chain that is not a run's (`access`, `delivery`).
    func appendAudit(_ events: [AuditEvent], chain: String) async throws
    /// Entries with their content in (chain, seq) order after `after`, of one chain when `chain` is given.
    func auditChainEntries(after: AuditPlace?, chain: String?, limit: Int) async throws -> [AuditEntry]
    /// Entries with their content in the order written, for an export.
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry]
    /// The heads the runs and the other chains record, by chain.
    func auditRecordedHeads() async throws -> [String: AuditHead]
    /// Appends an anchor listing the last entry of every chain written to since the last anchor
    /// (of every chain with `everything`); nil when no chain was. Replicas anchoring at once
    /// take turns, and each anchor lists what it saw.
    func anchorAudit(everything: Bool, now: Date, by actor: AuditActor) async throws -> AuditEntry?
}

/// A kept version of a survey's definition.
public struct SurveyVersionRecord: Sendable, Hashable {
    public var version: String
    public var definition: String
    public var keptAt: Date

    public init(version: String, definition: String, keptAt: Date) {
        self.version = version
        self.definition = definition
        self.keptAt = keptAt
    }
}

/// What a store holds for a record (its visits and resume code), kept beside it; nil when not
/// known. Equal whatever it holds, so two records that say the same are equal however they were read.
public struct StoredState: Sendable, Hashable {
    public var visits: VisitList?
    public var resumeCode: String?

    public init(_ visits: VisitList? = nil, resumeCode: String? = nil) {
        self.visits = visits
        self.resumeCode = resumeCode
    }

    public static func == (lhs: StoredState, rhs: StoredState) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// A message waiting in the outbox for delivery.
public struct OutboxEvent: Sendable, Hashable {
    public var id: UUID
    public var runID: UUID
    public var payload: String
    public var attempts: Int
    public var nextAttemptAt: Date

    public init(id: UUID, runID: UUID, payload: String, attempts: Int = 0, nextAttemptAt: Date) {
        self.id = id
        self.runID = runID
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
    }
}
