import Foundation

/// Counts attempts per key (a client's address, a resume code's first half…) in a sliding
/// window and refuses more than `limit` of them, so a resume code (31⁸ possibilities) cannot
/// be guessed by trying and one client cannot start runs without end.
///
/// Taking a place and giving it back are two steps, so that several requests of one client
/// in parallel cannot all pass a check made before any of them is recorded: `reserve` checks
/// and records at once, and `release` takes back a place whose attempt turned out to be a
/// success. The counts live in an `AttemptWindows`, bounded and never dropping a key still
/// inside its window.
actor AttemptLimiter {
    let limit: Int
    private var table: AttemptWindows

    init(limit: Int, window: TimeInterval, maximumKeys: Int = 10_000) {
        self.limit = limit
        table = AttemptWindows(window: window, maximumKeys: maximumKeys)
    }

    /// Records an attempt for `key` and returns its time, or nil (recording nothing) when the
    /// key already has `limit` attempts in the window.
    func reserve(_ key: String, now: Date) -> Date? {
        let (counted, times) = table.recent(key, now: now)
        guard times.count < limit else {
            table.keep(times, for: counted)
            return nil
        }
        table.keep(times + [now], for: counted)
        return now
    }

    /// Takes back one attempt reserved at `time`: it succeeded, so it does not count.
    func release(_ key: String, reservedAt time: Date) {
        table.release(key, at: time)
    }

    /// True while `key` may try again (without recording anything).
    func allows(_ key: String, now: Date) -> Bool {
        table.count(key, now: now) < limit
    }

    /// How many keys are held, for tests.
    var keyCount: Int { table.keyCount }
}
