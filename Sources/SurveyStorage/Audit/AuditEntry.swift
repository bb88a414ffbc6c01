import Crypto
import Foundation
import JSON
import SurveyCore

/// One entry of the audit log as kept. An entry belongs to a chain (a run's, by its lower-case
/// identifier, or `access`, `delivery` or `anchor`) at a place `seq` from 1; its `hash` is the
/// SHA-256 of its fields and the previous entry's hash, so changing, removing or inserting an
/// entry breaks the chain from there on.
///
/// What a participant gave is not in the entry but in its content, kept apart with a random
/// salt: the entry holds `contentHash`, the SHA-256 of salt and content, so the content can be
/// erased (salt and all) and the chain still verifies, while the hash left gives nothing away.
public struct AuditEntry: Sendable, Hashable {
    /// The entry's place in the log as written, from 1 (0 until a store writes it): entries are
    /// appended in this order, which is the order of their times within a store's writer.
    public var id: Int64 = 0
    public var chain: String
    public var seq: Int
    /// Milliseconds since 1970.
    public var atMillis: Int64
    public var actor: String
    public var action: String
    public var survey: String
    /// The run's lower-case identifier, when the entry concerns one.
    public var run: String?
    /// Compact JSON.
    public var detail: String
    /// Empty when the entry has no content.
    public var contentHash: String
    public var previousHash: String
    public var hash: String
    /// The content and its salt (hex), while they are kept.
    public var content: String?
    public var salt: String?

    public init(chain: String, seq: Int, atMillis: Int64, actor: String, action: String, survey: String, run: String?, detail: String,
                contentHash: String, previousHash: String, hash: String, content: String? = nil, salt: String? = nil) {
        self.chain = chain
        self.seq = seq
        self.atMillis = atMillis
        self.actor = actor
        self.action = action
        self.survey = survey
        self.run = run
        self.detail = detail
        self.contentHash = contentHash
        self.previousHash = previousHash
        self.hash = hash
        self.content = content
        self.salt = salt
    }

    public var at: Date { Date(timeIntervalSince1970: Double(atMillis) / 1000) }

    /// The hash this entry's fields and its previous hash make.
    public var expectedHash: String {
        // Each field with its length, so no two different entries can read the same.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320 + detail.utf8.count)
        bytes.append(contentsOf: "survey-audit-1\n".utf8)
        for field in [chain, String(seq), String(atMillis), actor, action, survey, run ?? "", detail, contentHash, previousHash] {
            bytes.append(contentsOf: String(field.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: field.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return Self.hex(SHA256.hash(data: bytes))
    }

    /// The hash of a content and its salt.
    public static func contentHash(content: String, salt: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(salt.utf8.count + 1 + content.utf8.count)
        bytes.append(contentsOf: salt.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: content.utf8)
        return hex(SHA256.hash(data: bytes))
    }

    /// A content as the entry keeps it: compact JSON.
    static func text(of content: AuditContent) -> String {
        switch content {
        case .json(let value):
            return JSONWriter.string(value, pretty: false)
        case .answers(let before, let after):
            var bytes = Array(#"{"before":"#.utf8)
            bytes.append(contentsOf: (try? RunJSON.results(before)) ?? Array("[]".utf8))
            bytes.append(contentsOf: Array(#","after":"#.utf8))
            bytes.append(contentsOf: (try? RunJSON.results(after)) ?? Array("[]".utf8))
            bytes.append(UInt8(ascii: "}"))
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The event placed after `head` in `chain`.
    /// `chainRun` is the run whose chain this is, when it is one: its events need not spell the run again.
    public static func seal(_ event: AuditEvent, chain: String, after head: AuditHead, chainRun: UUID? = nil) -> AuditEntry {
        var content: String?
        var salt: String?
        var contentHash = ""
        if let value = event.content {
            var generator = SystemRandomNumberGenerator()
            let text = Self.text(of: value)
            let words = [generator.next(), generator.next()] as [UInt64]
            let fresh = hex(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
            contentHash = Self.contentHash(content: text, salt: fresh)
            content = text
            salt = fresh
        }
        var entry = AuditEntry(chain: chain, seq: head.seq + 1, atMillis: Int64((event.at.timeIntervalSince1970 * 1000).rounded()),
                               actor: event.actor.text, action: event.action, survey: event.survey,
                               run: runText(event.run, chain: chain, chainRun: chainRun), detail: JSONWriter.string(event.detail, pretty: false),
                               contentHash: contentHash, previousHash: head.hash, hash: "", content: content, salt: salt)
        entry.hash = entry.expectedHash
        return entry
    }

    /// The run an entry names: its chain's own run without spelling it again, another as its text,
    /// and a run's chain's run when the event names none.
    private static func runText(_ run: UUID?, chain: String, chainRun: UUID?) -> String? {
        if let run { return run == chainRun ? chain : Self.chain(of: run) }
        return chainRun != nil || UUID(uuidString: chain) != nil ? chain : nil
    }

    /// Events placed one after another from `head`; returns the entries and the new head.
    public static func seal(_ events: [AuditEvent], chain: String, after head: AuditHead, chainRun: UUID? = nil) -> ([AuditEntry], AuditHead) {
        var head = head
        var entries: [AuditEntry] = []
        entries.reserveCapacity(events.count)
        for event in events {
            let entry = seal(event, chain: chain, after: head, chainRun: chainRun)
            entries.append(entry)
            head = AuditHead(seq: entry.seq, hash: entry.hash)
        }
        return (entries, head)
    }

    /// A run's chain name.
    public static func chain(of run: UUID) -> String { run.uuidString.lowercased() }

    /// The chains that are not a run's.
    public static let accessChain = "access"
    public static let deliveryChain = "delivery"
    public static let anchorChain = "anchor"

    /// The action of the entry that erases a chain's content.
    public static let erasedAction = "content.erased"
    public static let anchorAction = "audit.anchored"

    /// Lower-case hexadecimal, two digits a byte.
    public static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The entry as one line of the export (JSON Lines).
    public var json: JSONValue {
        let detailValue = (try? JSONParser.parse(detail)) ?? .string(detail)
        let contentValue = content.flatMap { try? JSONParser.parse($0) }
        return .object([
            "id": .number(Double(id)), "chain": .string(chain), "seq": .number(Double(seq)),
            "at": .string(timestamp), "actor": .string(actor), "action": .string(action),
            "survey": survey.isEmpty ? nil : .string(survey), "run": run.map(JSONValue.string), "detail": detailValue,
            "content": contentValue, "contentHash": contentHash.isEmpty ? nil : .string(contentHash),
            "erased": (!contentHash.isEmpty && content == nil) ? .bool(true) : nil,
            "previousHash": .string(previousHash), "hash": .string(hash),
        ])
    }

    /// The entry's time in UTC, to the millisecond, as the exports write instants.
    public var timestamp: String {
        DateTimeParsing.preciseString(at, in: TimeZone(identifier: "UTC")!)
    }
}
