import Foundation
import SurveyAnalysis

/// Runs the preview's path searches on threads of their own, so that a search never holds a
/// thread that serves requests, and at most `width` at once: the others wait their turn.
///
/// A search is bounded by `PathBudget.page` (work and two seconds), so a thread is held
/// briefly; a thread of its own also gives it a stack deep enough for a walk as long as the survey.
actor PreviewPathWorkers {
    /// The workers every preview shares.
    static let shared = PreviewPathWorkers(width: 2)

    nonisolated let width: Int
    /// The searches on a thread now, and those waiting for a place.
    private(set) var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    var queued: Int { waiting.count }

    init(width: Int) {
        self.width = width
    }

    /// The result of `work`, run on a thread of its own once a place is free.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await enter()
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.stackSize = 64 << 20
            thread.start()
        }
        leave()
        return value
    }

    private func enter() async {
        if running < width {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the place to the next in line, or frees it.
    private func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
