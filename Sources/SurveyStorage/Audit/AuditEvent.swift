import Crypto
import Foundation
import JSON
import SurveyCore

/// Who did something the audit log records.
public struct AuditActor: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// A participant, named by a pseudonym of their session (never the session itself).
        case participant
        /// A researcher's named API token.
        case token
        /// A kiosk device.
        case kiosk
        /// A member of staff, by the name they typed.
        case staff
        /// The server itself (retention, webhook delivery, anchors) or the command line.
        case system
    }

    public let kind: Kind
    public let name: String
    /// `kind:name`, as the log keeps it.
    public let text: String

    public init(_ kind: Kind, _ name: String) {
        self.kind = kind
        // One line, so that an actor reads the same in every export.
        self.name = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(200).map(Character.init))
        text = "\(kind.rawValue):\(self.name)"
    }

    /// A name made here, known to be one short line.
    private init(kind: Kind, made name: String) {
        self.kind = kind
        self.name = name
        text = "\(kind.rawValue):\(name)"
    }


    /// A participant by a pseudonym of their session: the same session always reads the same,
    /// and the session (which would let its holder act as the participant) cannot be read back.
    public static func participant(session: String) -> AuditActor {
        let digest = SHA256.hash(data: Data(("survey-audit-session\u{0}" + session).utf8))
        return AuditActor(kind: .participant, made: AuditEntry.hex(digest.prefix(8)))
    }

    public static func token(_ name: String) -> AuditActor { AuditActor(.token, name) }
    public static func kiosk(_ device: String) -> AuditActor { AuditActor(.kiosk, device) }
    public static func staff(_ name: String) -> AuditActor { AuditActor(.staff, name) }
    public static func system(_ name: String) -> AuditActor { AuditActor(.system, name) }
}

/// What a participant gave, as an entry keeps it apart (and erases it).
public enum AuditContent: Sendable, Hashable {
    case json(JSONValue)
    /// A step's results before and after a post, in the stores' own encoding of results (the
    /// result's keys, the answer as its case, dates as seconds since 1970): written straight
    /// into bytes, as the step's visit row is.
    case answers(before: [QuestionResult], after: [QuestionResult])
}

/// Something to record, before a store places it in a chain. `detail` says what happened
/// without personal data (steps, counts, filters) and stays for ever; `content` holds what a
/// participant gave (answers before and after, parameters, names) and is erased with the run.
public struct AuditEvent: Sendable, Hashable {
    public var action: String
    public var actor: AuditActor
    public var at: Date
    public var survey: String
    /// The run the event concerns, when there is one.
    public var run: UUID?
    public var detail: JSONValue
    public var content: AuditContent?

    public init(_ action: String, by actor: AuditActor, at: Date, survey: String = "", run: UUID? = nil,
                detail: JSONValue = .object([:]), content: AuditContent? = nil) {
        self.action = action
        self.actor = actor
        self.at = at
        self.survey = survey
        self.run = run
        self.detail = detail
        self.content = content
    }
}

/// A chain's last entry: the next one follows it.
public struct AuditHead: Sendable, Hashable {
    public var seq: Int
    public var hash: String

    public init(seq: Int, hash: String) {
        self.seq = seq
        self.hash = hash
    }

    /// Where every chain begins.
    public static let genesis = AuditHead(seq: 0, hash: String(repeating: "0", count: 64))
}

/// What a run's record carries for its chain: the head as the store last wrote it, and the
/// events to write with the next insert, update or delete. Equal whatever it holds, so two
/// records that say the same are equal however they were read.
public struct AuditTrail: Sendable, Hashable {
    public var head: AuditHead
    public var pending: [AuditEvent]

    public init(head: AuditHead = .genesis, pending: [AuditEvent] = []) {
        self.head = head
        self.pending = pending
    }

    public static func == (lhs: AuditTrail, rhs: AuditTrail) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
