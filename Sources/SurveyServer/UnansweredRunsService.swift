import Foundation
import Logging
import ServiceLifecycle
import SurveyStorage

/// Deletes runs that were started but never answered (not saved, not made through the API)
/// once they have been left alone for `lifetime`: a run is stored from its first post, and one
/// that went no further than an opening page would otherwise stay for ever. Runs every
/// twelfth of the lifetime, at most every ten minutes.
struct UnansweredRunsService: Service {
    let store: any RunStore
    let lifetime: TimeInterval
    let clock: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        let pause = min(600, max(1, lifetime / 12))
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let deleted = try await store.deleteUnanswered(before: clock().addingTimeInterval(-lifetime))
                    if deleted > 0 { logger.info("Deleted runs started but never answered", metadata: ["count": "\(deleted)"]) }
                } catch {
                    logger.error("Could not delete runs started but never answered")
                }
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}
