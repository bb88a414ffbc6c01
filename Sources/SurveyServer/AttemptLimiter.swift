import Foundation

/// Counts attempts per key (a client's address, a resume code's first half…) in a sliding
/// window and refuses more than `limit` of them, so a resume code (31⁸ possibilities) cannot
/// be guessed by trying and one client cannot start runs without end.
///
/// Taking a place and giving it back are two steps, so that several requests of one client
/// in parallel cannot all pass a check made before any of them is recorded: `reserve` checks
/// and records at once, and `release` takes back a place whose attempt turned out to be a
/// success.
///
/// The table holds at most `maximumKeys` keys, and a key still inside its window is never
/// dropped: dropping one would hand its attempts back to whoever can flood the table. Keys
/// whose window has passed are swept out when the table fills; while it is still full, every
/// new key shares one overflow key with the same limit, so a flood of new keys is limited as
/// one client (and refused together) rather than resetting anyone's count.
actor AttemptLimiter {
    let limit: Int
    let window: TimeInterval
    private let maximumKeys: Int
    private var attempts: [String: [Date]] = [:]
    /// When the table was last swept, so that a full table is not swept on every attempt.
    private var sweptAt = Date.distantPast

    /// The key that new keys share while the table is full.
    static let overflowKey = "\u{0}overflow"

    init(limit: Int, window: TimeInterval, maximumKeys: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maximumKeys = maximumKeys
    }

    /// Records an attempt for `key` and returns its time, or nil (recording nothing) when the
    /// key already has `limit` attempts in the window.
    func reserve(_ key: String, now: Date) -> Date? {
        let key = admitted(key, now: now)
        var times = attempts[key, default: []]
        times.removeAll { now.timeIntervalSince($0) >= window }
        guard times.count < limit else {
            attempts[key] = times
            return nil
        }
        times.append(now)
        attempts[key] = times
        return now
    }

    /// Takes back one attempt reserved at `time`: it succeeded, so it does not count.
    func release(_ key: String, reservedAt time: Date) {
        let key = attempts[key] == nil ? Self.overflowKey : key
        guard var times = attempts[key], let index = times.lastIndex(of: time) else { return }
        times.remove(at: index)
        attempts[key] = times.isEmpty ? nil : times
    }

    /// True while `key` may try again (without recording anything).
    func allows(_ key: String, now: Date) -> Bool {
        let key = attempts[key] == nil && attempts.count >= maximumKeys ? Self.overflowKey : key
        return (attempts[key]?.filter { now.timeIntervalSince($0) < window }.count ?? 0) < limit
    }

    /// How many keys are held, for tests.
    var keyCount: Int { attempts.count }

    /// The key an attempt counts under: its own, unless it is new and the table is full of
    /// keys still inside their window.
    private func admitted(_ key: String, now: Date) -> String {
        guard attempts[key] == nil, attempts.count >= maximumKeys else { return key }
        if now.timeIntervalSince(sweptAt) >= window / 100 {
            sweptAt = now
            attempts = attempts.compactMapValues { times in
                let kept = times.filter { now.timeIntervalSince($0) < window }
                return kept.isEmpty ? nil : kept
            }
        }
        return attempts.count >= maximumKeys ? Self.overflowKey : key
    }
}
