import Foundation
import JSON
import SurveyCore

/// A place in a chain: after it, a walk in chain order goes on.
public struct AuditPlace: Sendable, Hashable {
    public var chain: String
    public var seq: Int

    public init(chain: String, seq: Int) {
        self.chain = chain
        self.seq = seq
    }
}

/// Which entries an export reads, in the order they were written.
public struct AuditQuery: Sendable {
    /// Entries about this run, in any chain.
    public var run: UUID?
    public var since: Date?
    /// Entries written after this one (its `id`).
    public var afterID: Int64
    public var limit: Int

    public init(run: UUID? = nil, since: Date? = nil, afterID: Int64 = 0, limit: Int = 500) {
        self.run = run
        self.since = since
        self.afterID = afterID
        self.limit = limit
    }

    var sinceMillis: Int64 { since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? Int64.min }

    func matches(_ entry: AuditEntry) -> Bool {
        (run.map { entry.run == AuditEntry.chain(of: $0) } ?? true) && entry.atMillis >= sinceMillis && entry.id > afterID
    }
}

extension AuditEvent {
    /// The entry that closes a run's chain when its content is erased.
    public static func erasure(reason: String, by actor: AuditActor, at: Date) -> AuditEvent {
        AuditEvent(AuditEntry.erasedAction, by: actor, at: at, detail: .object(["reason": .string(reason)]))
    }

    /// An erasure as a store writes it for one run: placed on the run, with `began`, when the run
    /// began (UTC, to the millisecond). Like the rest of the detail it is kept for ever; once the
    /// run is gone it is what the dashboard counts a discarded run by.
    func erasing(run: UUID, survey: String, began: Date) -> AuditEvent {
        var event = self
        event.run = run
        event.survey = survey
        if case .object(var detail) = detail {
            detail["began"] = .string(DateTimeParsing.preciseString(began, in: TimeZone(identifier: "UTC")!))
            event.detail = .object(detail)
        }
        return event
    }
}

extension RunStore {
    /// Every entry in (chain, seq) order, a page at a time.
    public func forEachAuditChainPage(chain: String? = nil, pageSize: Int = 1_000,
                                      _ body: ([AuditEntry]) async throws -> Void) async throws {
        var after: AuditPlace?
        while true {
            let page = try await auditChainEntries(after: after, chain: chain, limit: pageSize)
            guard let last = page.last else { return }
            try await body(page)
            guard page.count == pageSize else { return }
            after = AuditPlace(chain: last.chain, seq: last.seq)
        }
    }

    /// Walks the whole log and checks it (see `AuditVerifier`).
    public func verifyAudit() async throws -> AuditVerifier {
        var verifier = AuditVerifier()
        try await forEachAuditChainPage(chain: AuditEntry.anchorChain) { page in
            for entry in page { verifier.expect(anchor: entry) }
        }
        try await forEachAuditChainPage { page in
            for entry in page { verifier.feed(entry) }
        }
        verifier.check(recorded: try await auditRecordedHeads())
        verifier.finish()
        return verifier
    }
}

extension AuditEvent {
    /// An anchor: the last entry of each chain listed, so that removing a chain's tail, or a
    /// whole chain, shows.
    /// `through` is the last entry (by `id`) the anchor looked at: the next one looks after it.
    public static func anchor(_ heads: [AuditEntry], through: Int64, by actor: AuditActor, at: Date) -> AuditEvent {
        AuditEvent(AuditEntry.anchorAction, by: actor, at: at, detail: .object([
            "through": .number(Double(through)),
            "heads": .array(heads.map { .array([.string($0.chain), .number(Double($0.seq)), .string($0.hash)]) }),
        ]))
    }
}

extension AuditEntry {
    /// The last entry an anchor looked at (0 for any other entry).
    var anchoredThrough: Int64 {
        guard action == AuditEntry.anchorAction, case .object(let detail)? = try? JSONParser.parse(detail),
              case .number(let through)? = detail["through"] else { return 0 }
        return Int64(through)
    }
}

extension RunStore {
    /// Every entry a query picks, in the order written, a page at a time.
    public func forEachAuditEntry(_ query: AuditQuery, _ body: (AuditEntry) async throws -> Void) async throws {
        var page = query
        while true {
            let entries = try await auditEntries(page)
            for entry in entries { try await body(entry) }
            guard let last = entries.last, entries.count == page.limit else { return }
            page.afterID = last.id
        }
    }
}
