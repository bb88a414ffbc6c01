import Foundation

/// Attempts per key (a client's address, a code's first half, a device) in a sliding window:
/// the table `AttemptLimiter` and `SecretGuard` keep their counts in.
///
/// It holds at most `maximumKeys` keys and never drops one still inside its window: dropping
/// one would hand its attempts back to whoever can flood the table. Keys whose window has
/// passed are swept out when the table fills (at most a hundred times a window); while it is
/// still full, every new key counts under one shared overflow key, so a flood of new keys is
/// limited as one client rather than resetting anyone's count.
struct AttemptWindows {
    let window: TimeInterval
    let maximumKeys: Int
    private var attempts: [String: [Date]] = [:]
    private var sweptAt = Date.distantPast

    /// The key that new keys share while the table is full.
    static let overflowKey = "\u{0}overflow"

    init(window: TimeInterval, maximumKeys: Int) {
        self.window = window
        self.maximumKeys = maximumKeys
    }

    /// The key an attempt of `key` counts under at `now`, and that key's attempts inside the window.
    mutating func recent(_ key: String, now: Date) -> (key: String, times: [Date]) {
        let counted = admitted(key, now: now)
        return (counted, (attempts[counted] ?? []).filter { now.timeIntervalSince($0) < window })
    }

    /// Keeps `times` as the attempts of `key` (a key `recent` returned).
    mutating func keep(_ times: [Date], for key: String) {
        attempts[key] = times.isEmpty ? nil : times
    }

    /// Takes back the attempt of `key` made at `time`.
    mutating func release(_ key: String, at time: Date) {
        let key = attempts[key] == nil ? Self.overflowKey : key
        guard var times = attempts[key], let index = times.lastIndex(of: time) else { return }
        times.remove(at: index)
        keep(times, for: key)
    }

    /// How many attempts `key` has inside the window, without recording anything.
    func count(_ key: String, now: Date) -> Int {
        let key = attempts[key] == nil && attempts.count >= maximumKeys ? Self.overflowKey : key
        return attempts[key]?.filter { now.timeIntervalSince($0) < window }.count ?? 0
    }

    var keyCount: Int { attempts.count }

    private mutating func admitted(_ key: String, now: Date) -> String {
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
