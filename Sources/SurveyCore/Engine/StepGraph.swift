import Foundation
import JSON

/// The steps as a graph of "can come next", for reachability and rule-order warnings.
struct StepGraph {
    let successors: [[Int]]

    init(task: SurveyTask) {
        var successors: [[Int]] = []
        for (index, step) in task.steps.enumerated() {
            if step.isCompletion {
                successors.append([])
                continue
            }
            let next = index + 1 < task.steps.count ? index + 1 : nil
            guard let rule = task.navigationRule(for: step.identifier) else {
                successors.append(next.map { [$0] } ?? [])
                continue
            }
            var targets: [Int] = []
            for destination in rule.possibleDestinations {
                switch destination {
                case nil: if let next { targets.append(next) }
                case .end?: break
                case .step(let identifier)?: if let target = task.index(of: identifier) { targets.append(target) }
                }
            }
            successors.append(targets)
        }
        self.successors = successors
    }

    func reachable(from start: Int) -> Set<Int> {
        var seen: Set<Int> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            for next in successors[current] where seen.insert(next).inserted {
                stack.append(next)
            }
        }
        return seen
    }

    /// True when a path of at least one move leads from `source` to `target`.
    func canReach(from source: Int, to target: Int) -> Bool {
        var seen: Set<Int> = []
        var stack = successors[source]
        while let current = stack.popLast() {
            if current == target { return true }
            if seen.insert(current).inserted { stack.append(contentsOf: successors[current]) }
        }
        return false
    }

    /// True when every path from the first step to `target` passes `source` first.
    func dominates(_ source: Int, _ target: Int) -> Bool {
        guard source != target, !successors.isEmpty else { return false }
        if source == 0 { return true }
        var seen: Set<Int> = [0]
        var stack = [0]
        while let current = stack.popLast() {
            if current == target { return false }
            for next in successors[current] where next != source && seen.insert(next).inserted { stack.append(next) }
        }
        return true
    }
}
