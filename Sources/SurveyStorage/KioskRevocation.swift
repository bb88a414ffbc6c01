import Foundation

/// A kiosk device staff signed out: its signed cookie no longer makes it a kiosk, on any
/// replica, though the cookie itself would still pass its signature check until `until`.
public struct KioskRevocation: Sendable, Hashable {
    /// The random identifier of the device's setup, from its cookie.
    public var device: String
    public var revokedAt: Date
    /// When the device's cookie would have expired anyway; the revocation is forgotten then.
    public var until: Date

    public init(device: String, revokedAt: Date, until: Date) {
        self.device = device
        self.revokedAt = revokedAt
        self.until = until
    }
}
