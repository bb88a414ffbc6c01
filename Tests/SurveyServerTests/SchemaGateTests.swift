import Synchronization
import Testing
@testable import SurveyServer

/// The services that use the store start only once its schema is migrated.
///
/// A gate that never lets a waiter go would hang these tests: each waits a bounded time for
/// what it expects, and the suite's time limit stops anything that still hangs.
@Suite("The schema gate", .timeLimit(.minutes(1)))
struct SchemaGateTests {
    /// Long enough for a waiter's task to start and reach the gate on a busy machine.
    static let settle = Duration.milliseconds(200)
    /// How long a waiter that should return may take to do so.
    static let patience = Duration.seconds(10)

    /// A task waiting at the gate, and whether its `wait()` has returned.
    struct Waiter {
        final class Flag: Sendable {
            private let value = Mutex(false)
            func set() { value.withLock { $0 = true } }
            var isSet: Bool { value.withLock { $0 } }
        }

        let task: Task<Void, Never>
        private let returned = Flag()

        /// `cancelledFirst`: the task is cancelled before it reaches the gate.
        init(_ gate: SchemaGate, cancelledFirst: Bool = false) {
            let returned = returned
            task = Task {
                if cancelledFirst { withUnsafeCurrentTask { $0?.cancel() } }
                await gate.wait()
                returned.set()
            }
        }

        var hasReturned: Bool { returned.isSet }

        /// Whether the waiter returns within `limit`; one that does not is cancelled.
        func returns(within limit: Duration) async -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + limit
            while !hasReturned, clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            if !hasReturned { task.cancel() }
            return hasReturned
        }
    }

    @Test("A waiter waits while the gate is shut and returns once it opens; one that comes after returns at once")
    func opens() async {
        let gate = SchemaGate()
        let waiter = Waiter(gate)
        try? await Task.sleep(for: Self.settle)
        #expect(!waiter.hasReturned, "a waiter returned before the gate opened")
        gate.open()
        #expect(await waiter.returns(within: Self.patience), "a waiter was still waiting \(Self.patience) after the gate opened")
        let late = Waiter(gate)
        #expect(await late.returns(within: Self.patience), "a waiter that came after the gate opened did not return")
    }

    @Test("A waiter whose task is cancelled returns though the gate stays shut")
    func cancelled() async {
        let gate = SchemaGate()
        let waiter = Waiter(gate)
        try? await Task.sleep(for: Self.settle)
        #expect(!waiter.hasReturned, "a waiter returned before the gate opened")
        waiter.task.cancel()
        #expect(await waiter.returns(within: Self.patience), "a cancelled waiter was still waiting \(Self.patience) later")
    }

    @Test("A waiter cancelled before it reaches the gate does not wait at all")
    func cancelledFirst() async {
        let waiter = Waiter(SchemaGate(), cancelledFirst: true)
        #expect(await waiter.returns(within: Self.patience), "a waiter cancelled first was still waiting \(Self.patience) later")
    }
}
