import Foundation

/// Counts failed attempts per client and refuses more than `limit` in `window`, so a resume
/// code (31⁸ possibilities) cannot be guessed by trying.
actor AttemptLimiter {
    private let limit: Int
    private let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// True while the client may try again.
    func allows(_ key: String, now: Date) -> Bool {
        prune(key, now: now)
        return (failures[key]?.count ?? 0) < limit
    }

    func recordFailure(_ key: String, now: Date) {
        prune(key, now: now)
        failures[key, default: []].append(now)
        if failures.count > 10_000 { failures = failures.filter { !$0.value.isEmpty } }
    }

    private func prune(_ key: String, now: Date) {
        failures[key]?.removeAll { now.timeIntervalSince($0) > window }
        if failures[key]?.isEmpty == true { failures[key] = nil }
    }
}
