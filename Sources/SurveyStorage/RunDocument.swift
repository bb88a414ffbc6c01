import Foundation
import SurveyCore

/// A document made for a run once and kept as it was made: a signed consent copy. A store
/// writes each (run, kind) once and refuses a second; the document goes when its run does.
public struct RunDocument: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The copy made when the participant certified their consent.
        case consent
        /// The copy made when a member of staff countersigned, carrying both signatures.
        case countersignedConsent = "consent-countersigned"
    }

    public var runID: UUID
    public var kind: Kind
    public var bytes: [UInt8]
    /// The SHA-256 of `bytes`, lower-case hex, as the run's result gives it.
    public var sha256: String
    public var createdAt: Date

    public init(runID: UUID, kind: Kind, bytes: [UInt8], sha256: String, createdAt: Date) {
        self.runID = runID
        self.kind = kind
        self.bytes = bytes
        self.sha256 = sha256
        self.createdAt = createdAt
    }
}
