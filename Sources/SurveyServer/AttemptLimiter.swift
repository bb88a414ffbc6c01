import Foundation

/// Counts attempts per key (a client's address, a resume code's first half…) in a sliding
/// window and refuses more than `limit` of them, so a resume code (31⁸ possibilities) cannot
/// be guessed by trying and one client cannot start runs without end.
///
/// Taking a place and giving it back are two steps, so that several requests of one client
/// in parallel cannot all pass a check made before any of them is recorded: `reserve` checks
/// and records at once, and `release` takes back a place whose attempt turned out to be a
/// success. The table is bounded: past `maximumKeys`, keys whose window has passed are
/// dropped, then the least recently used.
actor AttemptLimiter {
    let limit: Int
    let window: TimeInterval
    private let maximumKeys: Int
    private var attempts: [String: [Date]] = [:]

    init(limit: Int, window: TimeInterval, maximumKeys: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maximumKeys = maximumKeys
    }

    /// Records an attempt for `key` and returns its time, or nil (recording nothing) when the
    /// key already has `limit` attempts in the window.
    func reserve(_ key: String, now: Date) -> Date? {
        var times = attempts[key, default: []]
        times.removeAll { now.timeIntervalSince($0) >= window }
        guard times.count < limit else {
            attempts[key] = times
            return nil
        }
        times.append(now)
        attempts[key] = times
        if attempts.count > maximumKeys { shrink(now: now) }
        return now
    }

    /// Takes back one attempt reserved at `time`: it succeeded, so it does not count.
    func release(_ key: String, reservedAt time: Date) {
        guard var times = attempts[key], let index = times.lastIndex(of: time) else { return }
        times.remove(at: index)
        attempts[key] = times.isEmpty ? nil : times
    }

    /// True while `key` may try again (without recording anything).
    func allows(_ key: String, now: Date) -> Bool {
        (attempts[key]?.filter { now.timeIntervalSince($0) < window }.count ?? 0) < limit
    }

    /// How many keys are held, for tests.
    var keyCount: Int { attempts.count }

    private func shrink(now: Date) {
        attempts = attempts.compactMapValues { times in
            let kept = times.filter { now.timeIntervalSince($0) < window }
            return kept.isEmpty ? nil : kept
        }
        guard attempts.count > maximumKeys else { return }
        let byLastUse = attempts.sorted { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }
        for (key, _) in byLastUse.prefix(attempts.count - maximumKeys * 3 / 4) { attempts[key] = nil }
    }
}
