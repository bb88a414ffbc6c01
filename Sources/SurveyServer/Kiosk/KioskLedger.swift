import Foundation
import Synchronization

/// What the server keeps of kiosk turns and devices beyond their signed cookies, which alone
/// cannot be taken back:
///
/// - the turns under way, with the time of their last request, so that a turn abandoned with
///   no later request is still ended when its deadline passes (`KioskHousekeeping`);
/// - the turns that ended (an end page shown, or ended for being idle), so that the turn's
///   cookie, replayed, starts nothing; each is kept until its cookie's deadline has passed,
///   after which the cookie is refused for its age anyway;
/// - the devices staff signed out, so that a copied device cookie starts no turn. Those are
///   also in the store, for every replica: `KioskHousekeeping` reads the new ones every few
///   seconds.
///
/// One lock around three dictionaries, taken once or twice per kiosk request.
final class KioskLedger: Sendable {
    struct Turn: Sendable, Equatable {
        let session: String
        let survey: String
        let lastSeen: Date
    }

    private struct State {
        var live: [String: Turn] = [:]
        var ended: [String: Date] = [:]
        var revoked: [String: Date] = [:]
    }

    private let state = Mutex(State())

    /// A request of the turn `session` arrived at `now`.
    func seen(_ session: String, survey: String, now: Date) {
        state.withLock { $0.live[session] = Turn(session: session, survey: survey, lastSeen: now) }
    }

    /// The turn is over: its cookie is refused from now on.
    func end(_ session: String, now: Date) {
        state.withLock { state in
            state.live[session] = nil
            state.ended[session] = now
        }
    }

    /// Stops following a turn that stored nothing; its cookie's own deadline ends it.
    func drop(_ session: String) {
        state.withLock { $0.live[session] = nil }
    }

    func hasEnded(_ session: String) -> Bool {
        state.withLock { $0.ended[session] != nil }
    }

    /// The device's setup no longer counts, until `until`.
    func revoke(_ device: String, until: Date) {
        state.withLock { $0.revoked[device] = until }
    }

    func isRevoked(_ device: String, now: Date) -> Bool {
        state.withLock { state in state.revoked[device].map { $0 > now } ?? false }
    }

    /// The turns whose last request here was before `deadline`.
    func turns(idleSince deadline: Date) -> [Turn] {
        state.withLock { $0.live.values.filter { $0.lastSeen < deadline } }
    }

    /// Forgets ended turns older than `endedBefore` and revocations past their time.
    func forget(endedBefore: Date, now: Date) {
        state.withLock { state in
            state.ended = state.ended.filter { $0.value >= endedBefore }
            state.revoked = state.revoked.filter { $0.value > now }
        }
    }

    /// How many turns are under way here, for tests.
    var liveCount: Int { state.withLock { $0.live.count } }
}
