import Foundation
import JSON
import Logging
import ServiceLifecycle
import SurveyStorage

/// Deletes runs that have outlived their keeping, now and then every `pause`, until the
/// server shuts down: finished runs past the retention period, and runs started but never
/// answered (not saved, not made through the API) left alone past their lifetime — a run is
/// stored from its first post, and one that went no further than an opening page would
/// otherwise stay for ever.
struct DeletionService: Service {
    let what: String
    let pause: TimeInterval
    let delete: @Sendable () async throws -> Int
    let logger: Logger

    /// Finished runs, `retention` after they finished; checked hourly.
    static func retention(_ retention: TimeInterval, store: any RunStore, clock: @escaping @Sendable () -> Date, logger: Logger) -> Self {
        DeletionService(what: "finished runs past the retention period", pause: 3600,
                        delete: {
                            let now = clock()
                            return try await store.deleteFinished(before: now.addingTimeInterval(-retention),
                                                                  erasure: .erasure(reason: "retention", by: .system("retention"), at: now))
                        }, logger: logger)
    }

    /// Runs never answered, `lifetime` after their last change; checked every twelfth of it, at most every ten minutes.
    static func unanswered(_ lifetime: TimeInterval, store: any RunStore, clock: @escaping @Sendable () -> Date, logger: Logger) -> Self {
        DeletionService(what: "runs started but never answered", pause: min(600, max(1, lifetime / 12)),
                        delete: {
                            let now = clock()
                            return try await store.deleteUnanswered(before: now.addingTimeInterval(-lifetime),
                                                                    erasure: .erasure(reason: "unanswered", by: .system("retention"), at: now))
                        }, logger: logger)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let deleted = try await delete()
                    if deleted > 0 { logger.info("Deleted \(what)", metadata: ["count": "\(deleted)"]) }
                } catch {
                    logger.error("Could not delete \(what)")
                }
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}
