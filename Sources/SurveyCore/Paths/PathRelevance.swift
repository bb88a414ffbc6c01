import Foundation

/// What the rest of a path can depend on, so that paths that agree on it are searched once.
///
/// From a step, the rest of the path can only show steps reachable from it, and can only
/// test answers of the steps its moves, skip rules and visibility rules name. Two paths at
/// the same step that showed the same of those steps, and whose conditions agree on the
/// answers the rest can test (and on everything tied to them through a shared condition),
/// have the same futures: a survey of many independent branches, each one joining the main
/// line again, then costs a path per branch rather than one per combination of branches.
struct PathRelevance: Sendable {
    /// For each step: the steps reachable from it and the steps whose answers the rest may test.
    let shownThatMatter: [String: Set<String>]
    /// For each step: the steps whose answers the rest of a path from it may test.
    let testedLater: [String: Set<String>]

    init(task: SurveyTask, graph: RuleGraph) {
        var successors: [String: [String]] = [:]
        var tested: [String: Set<String>] = [:]
        for step in task.steps {
            var names: [Predicate] = graph.edges(from: step.identifier).compactMap(\.condition)
            if let skip = graph.skipRules[step.identifier] { names.append(skip) }
            names += step.questions.compactMap(\.visibleIf)
            tested[step.identifier] = Set(names.flatMap(\.selectors).map(\.stepIdentifier))
            guard graph.movesOn(from: step) else { continue }
            successors[step.identifier] = graph.edges(from: step.identifier).compactMap { edge in
                if case .step(let next) = edge.to { return next }
                return nil
            }
        }
        var shownThatMatter: [String: Set<String>] = [:]
        var testedLater: [String: Set<String>] = [:]
        for step in task.steps {
            // Everything reachable after the step; its own moves are tested on leaving it.
            var reachable = Set<String>()
            var stack = successors[step.identifier] ?? []
            while let next = stack.popLast() {
                if reachable.insert(next).inserted { stack += successors[next] ?? [] }
            }
            var names = Set(graph.edges(from: step.identifier).compactMap(\.condition).flatMap(\.selectors).map(\.stepIdentifier))
            for next in reachable { names.formUnion(tested[next] ?? []) }
            testedLater[step.identifier] = names
            shownThatMatter[step.identifier] = reachable.union(names)
        }
        self.shownThatMatter = shownThatMatter
        self.testedLater = testedLater
    }

    /// What a path at its last step carries into the rest: paths with equal signatures have the same futures.
    struct Signature: Hashable {
        let step: String
        let shown: Set<String>
        let visibility: [QuestionKey: AnswerFormula]
        let conditions: Set<AnswerFormula>
    }

    func signature(at step: String, point: PathPoint, conditions: [AnswerFormula]) -> Signature {
        let tested = testedLater[step] ?? []
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
        return Signature(step: step, shown: point.shown.intersection(shownThatMatter[step] ?? []), visibility: visibility, conditions: kept)
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
