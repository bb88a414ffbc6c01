import Foundation
import NIOCore
import Hummingbird

/// How a clinic's kiosks behave (`survey serve --kiosk-pin …`).
public struct KioskSettings: Sendable {
    /// The PIN staff enter to make a device a kiosk, and to stop it being one: 6 digits or more.
    public var pin: String
    /// How long a device stays a kiosk once staff set it up.
    public var deviceLifetime: TimeInterval = 12 * 3600
    /// Seconds an end page (finished, saved, cancelled) shows before the start screen returns.
    public var returnAfter = 15
    /// Seconds without a request before a step page asks "Are you still there?".
    public var idleAfter = 120
    /// Seconds "Are you still there?" waits before the run ends per the survey's `kioskIdle`.
    public var grace = 30
    /// Seconds between the server's looks for abandoned turns and devices signed out elsewhere.
    public var sweepEvery: TimeInterval = 5

    public init(pin: String) {
        self.pin = pin
    }

    /// True for a PIN staff may use: at least six digits and nothing else.
    public static func isValidPIN(_ pin: String) -> Bool {
        pin.utf8.count >= 6 && pin.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
