import Foundation
import Hummingbird
import ServiceLifecycle
import UnixSignals

extension ApplicationProtocol {
    /// Runs the server until SIGTERM or SIGINT, then stops listening and lets the requests in
    /// flight finish: Hummingbird closes a connection once its last response is written, and
    /// closes at once those with no request head read. A client that stops reading the
    /// responses it asked for would hold that wait forever, since no connection deadline runs
    /// while the server owes a response; so the wait lasts at most `limit`, after which the
    /// connections left are cut and the server exits.
    public func runService(drainingAtMost limit: TimeInterval) async throws {
        var group = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .milliseconds(Int64(limit * 1000))
        try await ServiceGroup(configuration: group).run()
    }
}
