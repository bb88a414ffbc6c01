import Foundation
import JSON
import SurveyCore

/// What the rest of a path can depend on, so that paths that agree on it are searched once.
///
/// From a step, the rest of the path can only show steps reachable from it, and can only
/// test answers of the steps its moves, skip rules and visibility rules name. Two paths at
/// the same step that showed the same of those steps, and whose conditions agree on the
/// answers the rest can test (and on everything tied to them through a shared condition),
/// have the same futures: a survey of many independent branches, each one joining the main
/// line again, then costs a path per branch rather than one per combination of branches.
struct PathRelevance: Sendable {
    /// For each step that moves on: the steps its moves lead to.
    let successors: [String: [String]]
    /// For each step: the steps whose answers its moves, skip rule and visibility rules test.
    let tested: [String: Set<String>]
    /// For each step: the steps whose answers its own moves test.
    let testedByMoves: [String: Set<String>]

    init(task: SurveyTask, graph: RuleGraph) {
        var successors: [String: [String]] = [:]
        var tested: [String: Set<String>] = [:]
        var testedByMoves: [String: Set<String>] = [:]
        for step in task.steps {
            let moves = graph.edges(from: step.identifier).compactMap(\.condition)
            var names: [Predicate] = moves
            if let skip = graph.skipRules[step.identifier] { names.append(skip) }
            names += step.questions.compactMap(\.visibleIf)
            tested[step.identifier] = Set(names.flatMap(\.selectors).map(\.stepIdentifier))
            testedByMoves[step.identifier] = Set(moves.flatMap(\.selectors).map(\.stepIdentifier))
            guard graph.movesOn(from: step) else { continue }
            successors[step.identifier] = graph.edges(from: step.identifier).compactMap { edge in
                if case .step(let next) = edge.to { return next }
                return nil
            }
        }
        self.successors = successors
        self.tested = tested
        self.testedByMoves = testedByMoves
    }

    /// What the rest of a path from a step can see.
    struct Future {
        /// The steps reachable from it and the steps whose answers the rest may test.
        let shownThatMatter: Set<String>
        /// The steps whose answers the rest of a path from it may test.
        let testedLater: Set<String>
    }

    /// The future of a step, worked out the first time it is asked for (each costs a walk of
    /// what follows the step, so a long survey pays only for the steps a search arrives at).
    func future(of step: String, memo: SolverMemo, meter: PathMeter) -> Future {
        if let known = memo.futures[step] { return known }
        // Everything reachable after the step; its own moves are tested on leaving it.
        var reachable = Set<String>()
        var stack = successors[step] ?? []
        while let next = stack.popLast() {
            if reachable.insert(next).inserted { stack += successors[next] ?? [] }
        }
        var names = testedByMoves[step] ?? []
        for next in reachable { names.formUnion(tested[next] ?? []) }
        meter.spend(reachable.count + 1)
        let future = Future(shownThatMatter: reachable.union(names), testedLater: names)
        memo.futures[step] = future
        return future
    }

    /// What a path at its last step carries into the rest: paths with equal signatures have the same futures.
    struct Signature: Hashable {
        let step: String
        let shown: Set<String>
        let visibility: [QuestionKey: AnswerFormula]
        let conditions: Set<AnswerFormula>
    }

    func signature(at step: String, point: PathPoint, conditions: [AnswerFormula], future: Future) -> Signature {
        let tested = future.testedLater
        let visibility = point.visibility.filter { tested.contains($0.key.step) }
        // The answers that matter: those tested later, those their visibility reads, and
        // those tied to either through a condition on the path so far.
        var matter = tested
        for formula in visibility.values { matter.formUnion(formula.steps) }
        var pending = conditions.map { (formula: $0, steps: $0.steps) }
        var kept = Set<AnswerFormula>()
        var grew = true
        while grew {
            grew = false
            pending.removeAll { entry in
                guard !entry.steps.isDisjoint(with: matter) else { return false }
                matter.formUnion(entry.steps)
                kept.insert(entry.formula)
                grew = true
                return true
            }
        }
        return Signature(step: step, shown: point.shown.intersection(future.shownThatMatter), visibility: visibility, conditions: kept)
    }
}

extension AnswerFormula {
    /// The steps whose answers the formula tests.
    var steps: Set<String> {
        switch self {
        case .constant: return []
        case .literal(let literal): return [literal.key.step]
        case .all(let parts), .any(let parts): return parts.reduce(into: Set<String>()) { $0.formUnion($1.steps) }
        }
    }
}
