import Foundation
import JSON
import SurveyCore

extension PathFinder {
    /// A path being extended: the steps shown, the moves between them, the steps passed
    /// over, what exists to be tested by now, and the conditions so far.
    struct PathState {
        var path: [String] = []
        var moves: [RuleGraph.Edge] = []
        var skipped: [(step: String, predicate: Predicate)] = []
        var point: PathPoint
        var conditions: [AnswerFormula] = []
    }

    /// Searches for answers that show `target`; the reason none do when there are none. A search
    /// that runs out of the command's budget reads as conditions that never hold, as one past
    /// `stateLimit` does.
    func search(for target: String, memo: SolverMemo) -> Reach {
        let meter = PathMeter(.command)
        if let found = search(for: target, memo: memo, meter: meter) { return found }
        memo.exhausted = true
        return .unreachable(.conditionsNeverHold(graph.conditionsOfShortestPath(to: target, in: task)))
    }

    /// Searches for answers that show `target` while `meter` lasts; nil when it ran out first,
    /// so that nothing is said about the step.
    func search(for target: String, memo: SolverMemo, meter: PathMeter) -> Reach? {
        guard task.step(target) != nil else { return .unreachable(.noPath) }
        guard meter.spend(task.steps.count) else { return nil }
        var search = Search(finder: self, target: target, solver: solver(memo), meter: meter,
                            leading: graph.arrivals(leadingTo: target, in: task))
        search.run()
        if let witness = search.witness { return .reachable(witness) }
        guard !meter.stopped else { return nil }
        guard let first = task.steps.first, search.leading.contains(first.identifier) else { return .unreachable(.noPath) }
        if search.arrivedSkipped, let skip = graph.skipRules[target] { return .unreachable(.alwaysSkipped(skip)) }
        return .unreachable(.conditionsNeverHold(graph.conditionsOfShortestPath(to: target, in: task)))
    }

    /// One breadth-first search for one target: paths in order of length, so the first
    /// witness found is among the shortest.
    private struct Search {
        let finder: PathFinder
        let target: String
        let solver: ConditionSolver
        let meter: PathMeter
        /// The steps from whose arrival the target can still be reached.
        let leading: Set<String>
        var queue: [PathState] = []
        /// The signatures of the paths queued: a path whose future is one already queued is not.
        var seen: Set<PathRelevance.Signature> = []
        var witness: Witness?
        /// Some answers arrive at the target, but only with its skip rule holding.
        var arrivedSkipped = false

        init(finder: PathFinder, target: String, solver: ConditionSolver, meter: PathMeter, leading: Set<String>) {
            self.finder = finder
            self.target = target
            self.solver = solver
            self.meter = meter
            self.leading = leading
        }

        mutating func run() {
            guard let first = finder.task.steps.first else { return }
            arrive(at: .step(first.identifier), PathState(point: PathPoint(index: finder.index)), passedOver: [])
            var head = 0
            while witness == nil, head < queue.count {
                if head >= finder.stateLimit {
                    solver.memo.exhausted = true
                    return
                }
                guard meter.spend() else { return }
                let state = queue[head]
                head += 1
                expand(state)
            }
        }

        /// The solver's answer, its work paid for: nil as well once the budget is gone.
        private func solve(_ conditions: [AnswerFormula]) -> [String: StepChoice]? {
            guard meter.spend(conditions.count) else { return nil }
            let found = solver.solve(conditions)
            meter.spend(solver.memo.nodes)
            return meter.stopped ? nil : found
        }

        /// Follows every move out of the last step shown.
        private mutating func expand(_ state: PathState) {
            guard let current = state.path.last else { return }
            for edge in finder.graph.edges(from: current) {
                let condition = edge.condition.map(state.point.formula) ?? .yes
                guard condition != .no else { continue }
                var moving = state
                moving.moves.append(edge)
                moving.conditions.append(condition)
                arrive(at: edge.to, moving, passedOver: [])
                if witness != nil { return }
            }
        }

        /// Arriving at a destination: the step is shown (its skip rule fails), or passed over
        /// (it holds) and its own moves apply on the same answers. A chain of skips that comes
        /// back to a step it passed ends the run, as in the navigator.
        private mutating func arrive(at destination: Destination, _ state: PathState, passedOver: Set<String>) {
            guard witness == nil, !meter.stopped, case .step(let identifier) = destination, leading.contains(identifier),
                  let step = finder.task.step(identifier) else { return }
            let skip = finder.graph.skipRules[identifier]
            let skipHolds = skip.map(state.point.formula) ?? .no
            let shows = skipHolds.negated
            if identifier == target {
                if shows != .no, let choices = solve(state.conditions + [shows]) {
                    if let found = finder.witness(path: state.path + [identifier], moves: state.moves, skipped: state.skipped, choices: choices,
                                                  meter: meter) {
                        witness = found
                        return
                    }
                    guard !meter.stopped else { return }
                    solver.memo.mismatches += 1
                }
                if skip != nil, !arrivedSkipped, solve(state.conditions) != nil { arrivedSkipped = true }
            } else if shows != .no, !step.isCompletion, !state.path.contains(identifier) {
                let conditions = state.conditions + [shows]
                if solve(conditions) != nil {
                    var next = state
                    next.path.append(identifier)
                    next.point = state.point.entering(step)
                    next.conditions = conditions
                    let future = finder.relevance.future(of: identifier, memo: solver.memo, meter: meter)
                    meter.spend(conditions.count)
                    if seen.insert(finder.relevance.signature(at: identifier, point: next.point, conditions: conditions, future: future)).inserted {
                        queue.append(next)
                    }
                }
            }
            guard let skip, skipHolds != .no, !passedOver.contains(identifier) else { return }
            var passed = state
            passed.conditions.append(skipHolds)
            guard solve(passed.conditions) != nil else { return }
            passed.skipped.append((identifier, skip))
            for edge in finder.graph.edges(from: identifier) {
                let condition = edge.condition.map(state.point.formula) ?? .yes
                guard condition != .no else { continue }
                var moving = passed
                moving.conditions.append(condition)
                arrive(at: edge.to, moving, passedOver: passedOver.union([identifier]))
                if witness != nil { return }
            }
        }
    }
}
