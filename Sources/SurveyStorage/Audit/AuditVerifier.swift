import Foundation
import JSON

/// What `verify` found wrong with one entry.
public struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The entry's fields no longer make its hash.
        case altered
        /// An entry that should be there is not.
        case removed
        /// An entry that was never written in its place is.
        case inserted
        /// Content was changed, or removed without an erasure entry saying so.
        case content
    }

    public var kind: Kind
    public var chain: String
    public var seq: Int
    public var message: String

    public var description: String { "\(kind.rawValue): chain \(chain), entry \(seq): \(message)" }
}

/// Walks the log chain by chain, in order, and checks every link. Feed it the anchor chain's
/// entries first (`expect(anchor:)`), then every entry in (chain, seq) order, then the heads the
/// runs and chains record (`check(recorded:)`), then `finish()`.
public struct AuditVerifier: Sendable {
    public private(set) var problems: [AuditProblem] = []
    public private(set) var entries = 0
    public private(set) var chains = 0
    /// The last anchor's place and hash: the head an operator keeps elsewhere.
    public private(set) var lastAnchor: AuditHead?

    private var current: String?
    private var head = AuditHead.genesis
    private var lastAction = ""
    /// Entries of the current chain whose content is gone, waiting for an erasure entry.
    private var contentless: [Int] = []
    /// What anchors say each chain held: chain → [seq: hash].
    private var anchored: [String: [Int: String]] = [:]
    /// Every chain's last entry, to compare with what the runs record.
    private var tails: [String: (head: AuditHead, action: String)] = [:]

    public init() {}

    /// Reads an anchor entry's list of chain heads.
    public mutating func expect(anchor entry: AuditEntry) {
        guard entry.chain == AuditEntry.anchorChain, entry.action == AuditEntry.anchorAction,
              case .object(let detail)? = try? JSONParser.parse(entry.detail), case .array(let heads)? = detail["heads"] else { return }
        for case .array(let fields) in heads where fields.count == 3 {
            if case .string(let chain) = fields[0], case .number(let seq) = fields[1], case .string(let hash) = fields[2] {
                anchored[chain, default: [:]][Int(seq)] = hash
            }
        }
    }

    public mutating func feed(_ entry: AuditEntry) {
        entries += 1
        if entry.chain != current {
            endChain()
            current = entry.chain
            chains += 1
            head = .genesis
        }
        if entry.seq > head.seq + 1 {
            report(.removed, entry.chain, head.seq + 1,
                   entry.seq == head.seq + 2 ? "the entry is missing" : "entries \(head.seq + 1) to \(entry.seq - 1) are missing")
        } else if entry.previousHash != head.hash {
            report(.inserted, entry.chain, entry.seq, "it does not follow entry \(head.seq): an entry before it was inserted or replaced")
        }
        if entry.hash != entry.expectedHash {
            report(.altered, entry.chain, entry.seq, "its fields no longer make its hash")
        }
        if entry.contentHash.isEmpty {
            if entry.content != nil { report(.content, entry.chain, entry.seq, "content was added to an entry that had none") }
        } else if let content = entry.content {
            if AuditEntry.contentHash(content: content, salt: entry.salt ?? "") != entry.contentHash {
                report(.content, entry.chain, entry.seq, "its content no longer makes its content hash")
            }
        } else {
            contentless.append(entry.seq)
        }
        if entry.action == AuditEntry.erasedAction { contentless.removeAll() }
        if let hash = anchored[entry.chain]?[entry.seq] {
            if hash != entry.hash { report(.altered, entry.chain, entry.seq, "an anchor recorded another hash for it") }
            anchored[entry.chain]?[entry.seq] = nil
        }
        if entry.chain == AuditEntry.anchorChain, entry.action == AuditEntry.anchorAction {
            lastAnchor = AuditHead(seq: entry.seq, hash: entry.hash)
        }
        head = AuditHead(seq: entry.seq, hash: entry.hash)
        lastAction = entry.action
    }

    private mutating func endChain() {
        guard let chain = current else { return }
        for seq in contentless {
            report(.content, chain, seq, "its content was removed without an erasure entry")
        }
        contentless.removeAll()
        tails[chain] = (head, lastAction)
    }

    /// Compares the chains' last entries with the heads their runs (or the chains' own rows)
    /// record; a run's chain whose run is gone must end with its erasure.
    public mutating func check(recorded: [String: AuditHead]) {
        endChain()
        current = nil
        for (chain, recordedHead) in recorded where recordedHead.seq > 0 {
            let tail = tails[chain]?.head ?? .genesis
            if tail.seq < recordedHead.seq {
                report(.removed, chain, tail.seq + 1, "the chain ends at entry \(tail.seq) but records entry \(recordedHead.seq) as its last")
            } else if tail.seq > recordedHead.seq {
                report(.inserted, chain, recordedHead.seq + 1, "the chain records entry \(recordedHead.seq) as its last")
            } else if tail.hash != recordedHead.hash {
                report(.altered, chain, tail.seq, "the chain records another hash for its last entry")
            }
        }
        for (chain, tail) in tails where recorded[chain] == nil && UUID(uuidString: chain) != nil && tail.action != AuditEntry.erasedAction {
            report(.removed, chain, tail.head.seq + 1, "the run is gone but its chain does not end with its erasure")
        }
        tails.removeAll()
    }

    /// Anchored entries never met are entries removed.
    public mutating func finish() {
        endChain()
        current = nil
        for (chain, seqs) in anchored {
            for seq in seqs.keys.sorted() { report(.removed, chain, seq, "an anchor recorded this entry, and it is gone") }
        }
        anchored.removeAll()
        problems.sort { ($0.chain, $0.seq) < ($1.chain, $1.seq) }
    }

    private mutating func report(_ kind: AuditProblem.Kind, _ chain: String, _ seq: Int, _ message: String) {
        problems.append(AuditProblem(kind: kind, chain: chain, seq: seq, message: message))
    }
}
