import Foundation
import Logging
import ServiceLifecycle
import SurveyRendering
import SurveyStorage

/// The kiosk's work that no request does, every `settings.sweepEvery` seconds until the server
/// shuts down:
///
/// - reads the devices staff signed out on any replica since the last look (with a minute's
///   overlap, for clocks a little apart), so a copied device cookie is refused everywhere
///   within a few seconds;
/// - ends the turns abandoned with no later request once their deadline (idle plus grace)
///   has passed, as the survey's `kioskIdle` says. A turn whose run was changed since, through
///   another replica, is left to that replica.
struct KioskHousekeeping: Service {
    let catalog: SurveyCatalog
    let runs: RunService
    let ledger: KioskLedger
    let settings: KioskSettings
    let clock: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var since = Date.distantPast
            while !Task.isCancelled {
                let now = clock()
                do {
                    since = try await pullRevocations(since: since, now: now)
                    try await sweep(now: now)
                } catch {
                    logger.error("Kiosk housekeeping could not reach the store")
                }
                try? await Task.sleep(for: .seconds(settings.sweepEvery))
            }
        }
    }

    /// Reads revocations made since `since`; returns where the next look starts.
    func pullRevocations(since: Date, now: Date) async throws -> Date {
        for revocation in try await runs.store.kioskRevocations(since: since, now: now) {
            ledger.revoke(revocation.device, until: revocation.until)
        }
        return now.addingTimeInterval(-60)
    }

    /// Ends the turns idle past their deadline at `now`.
    func sweep(now: Date) async throws {
        let deadline = now.addingTimeInterval(-TimeInterval(settings.idleAfter + settings.grace))
        for turn in ledger.turns(idleSince: deadline) {
            guard let pages = catalog.surveys[turn.survey] else {
                ledger.end(turn.session, now: now)
                continue
            }
            switch try await runs.endAbandonedTurn(pages.survey, session: turn.session, now: now, idleSince: deadline) {
            case .ended: ledger.end(turn.session, now: now)
            case .nothingStored: ledger.drop(turn.session)
            case .activeElsewhere(let lastChange): ledger.seen(turn.session, survey: turn.survey, now: lastChange)
            }
        }
        ledger.forget(endedBefore: deadline.addingTimeInterval(-300), now: now)
    }
}
