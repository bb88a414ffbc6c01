import Foundation
import JSON
import SurveyCore

/// What an export needs of a survey to read its runs: the steps ahead of each place a run can
/// stop, worked out once per place. One export uses one, from one task.
public final class Exporting {
    public let task: SurveyTask
    private let graph: RuleGraph
    private var aheadOf: [String: Set<String>] = [:]

    public init(task: SurveyTask) {
        self.task = task
        graph = RuleGraph(task: task)
    }

    /// The run's questions with their answers or missing reasons.
    public func answers(of run: TaskRun) -> RunAnswers {
        guard run.finishReason != .completed else { return RunAnswers(run: run, ahead: []) }
        guard let stop = run.path.last?.stepIdentifier else {
            return RunAnswers(run: run, ahead: Set(task.steps.map(\.identifier)))
        }
        return RunAnswers(run: run, ahead: ahead(of: stop))
    }

    /// The steps some sequence of moves reaches from `step` (the step itself, where it stands).
    func ahead(of step: String) -> Set<String> {
        if let known = aheadOf[step] { return known }
        var found: Set<String> = [step]
        var stack = [step]
        while let current = stack.popLast() {
            for edge in graph.edges(from: current) {
                if case .step(let next) = edge.to, found.insert(next).inserted { stack.append(next) }
            }
        }
        aheadOf[step] = found
        return found
    }
}
