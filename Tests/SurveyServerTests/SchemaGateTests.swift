import Testing
@testable import SurveyServer

/// The services that use the store start only once its schema is migrated.
@Suite("The schema gate")
struct SchemaGateTests {
    @Test("A waiter returns once the gate opens, and one that comes after returns at once")
    func opens() async {
        let gate = SchemaGate()
        let waiting = Task {
            await gate.wait()
            return true
        }
        gate.open()
        #expect(await waiting.value)
        await gate.wait()
    }

    @Test("A waiter whose task is cancelled returns though the gate stays shut")
    func cancelled() async {
        let gate = SchemaGate()
        let waiting = Task { await gate.wait() }
        waiting.cancel()
        await waiting.value
    }
}
