import Foundation
import JSON

/// What became of a run's consent after the participant certified it: the signed copy made
/// then, a member of staff's countersignature, and a later withdrawal. Kept with the run's
/// state; the copies themselves are stored beside the run, never made again.
public struct ConsentStatus: Sendable, Hashable, Codable {
    /// The SHA-256 (lower-case hex) of the signed copy made at certification.
    public var copySHA256: String?
    public var countersignature: Countersignature?
    /// When the participant withdrew their consent, if they did.
    public var withdrawnAt: Date?

    public init(copySHA256: String? = nil, countersignature: Countersignature? = nil, withdrawnAt: Date? = nil) {
        self.copySHA256 = copySHA256
        self.countersignature = countersignature
        self.withdrawnAt = withdrawnAt
    }

    /// A member of staff's confirmation that they took the consent, with the copy that carries both signatures.
    public struct Countersignature: Sendable, Hashable, Codable {
        public var name: String
        public var signedAt: Date
        /// The SHA-256 of the countersigned copy.
        public var copySHA256: String
        public init(name: String, signedAt: Date, copySHA256: String) {
            self.name = name
            self.signedAt = signedAt
            self.copySHA256 = copySHA256
        }
    }
}
