import Foundation
import Logging

/// Wrong staff secrets (the kiosk PIN, the preview token) slow down whoever sends them; they
/// never lock anyone out.
///
/// A hard limit on wrong tries lets anyone lock staff out: five wrong PINs from a clinic's
/// shared address, or fifty from anywhere, and the right PIN was refused for a quarter of an
/// hour. Here each key (a client's address, an IPv6 client's /64, a kiosk device) has a few
/// free tries in the window; after them each try must wait for the one before it, twice as
/// long each time up to `maximumDelay`, and a try that comes too early is refused unread with
/// how long to wait. So a guesser from one key gets about one try a minute, and the right
/// secret from another key, or from the same one after the wait, is let in.
///
/// Other people's failures refuse nobody. When wrong tries from everywhere pass
/// `alarmAfter` in the window the guard is alarmed (the caller logs it and counts it): from
/// then each key has one free try rather than `freeTries`, so a guesser with many addresses
/// is slowed too, while a key that has not failed is still read at once.
///
/// As `AttemptLimiter` does, a try takes its place before the secret is compared (so tries in
/// parallel are paced too) and gives it back when it was right; the table is bounded and
/// never drops a key inside its window (new keys share an overflow key while it is full).
actor SecretGuard {
    struct Settings: Sendable {
        var freeTries = 5
        var window: TimeInterval = 15 * 60
        var firstDelay: TimeInterval = 1
        var maximumDelay: TimeInterval = 60
        var alarmAfter = 50
        var maximumKeys = 10_000
    }

    enum Decision: Sendable, Equatable {
        /// Compare the secret; give the place back with `release` when it was right.
        case check(reservedAt: Date)
        /// Too early: refused unread, try again after this many seconds.
        case wait(seconds: Int)
    }

    let settings: Settings
    private var tries: AttemptWindows
    /// Wrong tries from every key, oldest first, for the alarm.
    private var everywhere: [Date] = []
    private(set) var alarmed = false

    init(_ settings: Settings = Settings()) {
        self.settings = settings
        tries = AttemptWindows(window: settings.window, maximumKeys: settings.maximumKeys)
    }

    /// Takes a place for a try of `key`'s, or says how long to wait. The try that raises the
    /// alarm logs it, once, as `what` ("kiosk PINs").
    func reserve(_ key: String, now: Date, what: String, logger: Logger) -> Decision {
        let (counted, times) = tries.recent(key, now: now)
        everywhere.removeAll { now.timeIntervalSince($0) >= settings.window }
        let wasAlarmed = everywhere.count >= settings.alarmAfter
        let free = wasAlarmed ? 1 : settings.freeTries
        if times.count >= free, let last = times.last {
            let delay = min(settings.maximumDelay, settings.firstDelay * pow(2, Double(min(times.count - free, 30))))
            let waited = now.timeIntervalSince(last)
            if waited < delay {
                tries.keep(times, for: counted)
                return .wait(seconds: Int((delay - waited).rounded(.up)))
            }
        }
        tries.keep(times + [now], for: counted)
        everywhere.append(now)
        alarmed = everywhere.count >= settings.alarmAfter
        if alarmed, !wasAlarmed {
            logger.warning("Many wrong \(what): \(everywhere.count) in \(Int(settings.window / 60)) minutes; every client now has one free try before it is slowed down.")
        }
        return .check(reservedAt: now)
    }

    /// Gives back the place of a try that was right.
    func release(_ key: String, reservedAt time: Date) {
        tries.release(key, at: time)
        if let index = everywhere.lastIndex(of: time) { everywhere.remove(at: index) }
        alarmed = everywhere.count >= settings.alarmAfter
    }
}
