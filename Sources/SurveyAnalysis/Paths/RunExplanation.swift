import Foundation
import JSON
import SurveyCore

/// Why a run is where it is: for each step it passed, the move that took it on and the steps
/// its skip rules passed over. Use the real Navigator/predicate evaluation on the run's result.
public struct RunExplanation: Sendable {
    public struct Step: Sendable {
        public let step: String
        /// The move that took the run on from this visit; nil for the run's current (last) visit.
        public let move: RuleGraph.Edge?
        /// The steps passed over by their skip rules after the move, in order, with the rule's predicate.
        public let skippedAfter: [(step: String, predicate: SurveyCore.Predicate)]
    }

    public let steps: [Step]
    /// Steps passed over by their skip rules before the first step shown (no visit precedes them).
    public let skippedAtStart: [(step: String, predicate: SurveyCore.Predicate)]
}

extension Navigator {
    /// The moves of a run, read again from its result: each visit's rule evaluated on the
    /// answers up to that visit, as `next` evaluated them when the participant moved on.
    public func explain(_ run: TaskRun) -> RunExplanation {
        let graph = RuleGraph(task: task)
        let path = Array(run.path)
        let empty = result(of: run, through: -1, now: run.startDate)
        var steps: [RunExplanation.Step] = []
        for (position, visit) in path.enumerated() {
            let isLast = position == path.count - 1
            // The last visit moved on only when the run was completed from it (a rule to $end,
            // or the end of the array), not at a completion step.
            let movedOn = !isLast || (run.finishReason == .completed && visit.isAnswered)
            guard movedOn, let step = task.step(visit.stepIdentifier), !step.isCompletion else {
                steps.append(RunExplanation.Step(step: visit.stepIdentifier, move: nil, skippedAfter: []))
                continue
            }
            let result = result(of: run, through: position, now: visit.endDate ?? run.startDate)
            let move = takenMove(from: step.identifier, graph: graph, on: result)
            let skipped = move.map { passedOver(from: $0.to, graph: graph, on: result) } ?? []
            steps.append(RunExplanation.Step(step: visit.stepIdentifier, move: move, skippedAfter: skipped))
        }
        let first: Destination? = task.steps.first.map { .step($0.identifier) }
        return RunExplanation(steps: steps, skippedAtStart: first.map { passedOver(from: $0, graph: graph, on: empty) } ?? [])
    }

    /// The move a step's rule takes on a result: the first conditional destination whose
    /// predicate holds, else the default.
    func takenMove(from step: String, graph: RuleGraph, on result: TaskResult) -> RuleGraph.Edge? {
        let moves = graph.edges(from: step)
        for move in moves {
            switch move.kind {
            case .rule:
                if move.predicate?.evaluate(on: result, timeZone: timeZone) == true { return move }
            case .next, .always, .otherwise:
                return move
            }
        }
        return nil
    }

    /// The steps passed over on arriving at a destination: while the step arrived at has a
    /// skip rule that holds, its own rule moves on. Stops where a chain comes back on itself.
    func passedOver(from destination: Destination, graph: RuleGraph, on result: TaskResult) -> [(step: String, predicate: Predicate)] {
        var passed: [(step: String, predicate: Predicate)] = []
        var seen = Set<String>()
        var current = destination
        while case .step(let identifier) = current, let skip = graph.skipRules[identifier],
              skip.evaluate(on: result, timeZone: timeZone), seen.insert(identifier).inserted {
            passed.append((identifier, skip))
            guard let move = takenMove(from: identifier, graph: graph, on: result) else { break }
            current = move.to
        }
        return passed
    }
}
