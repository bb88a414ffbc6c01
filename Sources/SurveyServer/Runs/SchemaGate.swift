import ServiceLifecycle
import Synchronization

/// Opens once the store's schema is migrated. The application's services that use the store
/// (deletions, webhook delivery) start behind it, so none reads a table before the migration
/// that makes it, which runs as the server starts.
final class SchemaGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open, or when the task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// `service`, started once the gate opens; if the group shuts down first, it never starts.
    func guarding(_ service: any Service) -> any Service {
        GatedService(gate: self, service: service)
    }
}

private struct GatedService: Service {
    let gate: SchemaGate
    let service: any Service

    func run() async throws {
        await cancelWhenGracefulShutdown { await self.gate.wait() }
        guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
        try await service.run()
    }
}
