import Foundation
import Logging
import ServiceLifecycle
import SurveyStorage

/// Every minute, appends an anchor to the audit log: the last entry of every chain that grew
/// since the anchor before (with two minutes' overlap, for transactions that committed late).
/// Removing a chain's last entries, or a whole chain, then breaks what an anchor recorded.
struct AuditAnchoring: Service {
    let store: any RunStore
    let clock: @Sendable () -> Date
    let logger: Logger
    var pause: TimeInterval = 60

    func run() async throws {
        await cancelWhenGracefulShutdown {
            // After a start, the chains of the last day: what an earlier process left unanchored.
            var since = clock().addingTimeInterval(-86_400)
            while !Task.isCancelled {
                let now = clock()
                do {
                    _ = try await store.anchorAudit(since: since, now: now, by: .system("anchor"))
                    since = now.addingTimeInterval(-120)
                } catch {
                    logger.error("Could not anchor the audit log")
                }
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}
