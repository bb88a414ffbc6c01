import Foundation
import Logging
import ServiceLifecycle
import SurveyStorage

/// Every minute, appends an anchor to the audit log: the last entry of every chain that grew
/// since the anchor before. Removing a chain's last entries, or a whole chain, then breaks what
/// an anchor recorded.
struct AuditAnchoring: Service {
    let store: any RunStore
    let clock: @Sendable () -> Date
    let logger: Logger
    var pause: TimeInterval = 60

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await store.anchorAudit(everything: false, now: clock(), by: .system("anchor"))
                } catch {
                    logger.error("Could not anchor the audit log")
                }
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}
