import Foundation
import JSON
import SurveyCore

/// The graph alone, conditions aside: which arrivals can lead to a step, and the shortest
/// sequence of moves that arrives there.
extension RuleGraph {
    /// Whether a step's moves can ever be used: when it is shown (a completion step ends the
    /// run instead) or passed over by its skip rule.
    func movesOn(from step: Step) -> Bool {
        !step.isCompletion || skipRules[step.identifier] != nil
    }

    /// The steps from whose arrival some sequence of moves arrives at `target` (itself included).
    func arrivals(leadingTo target: String, in task: SurveyTask) -> Set<String> {
        var predecessors: [String: [String]] = [:]
        for step in task.steps where movesOn(from: step) {
            for edge in edges(from: step.identifier) {
                if case .step(let destination) = edge.to { predecessors[destination, default: []].append(step.identifier) }
            }
        }
        var found: Set<String> = [target]
        var stack = [target]
        while let current = stack.popLast() {
            for source in predecessors[current] ?? [] where found.insert(source).inserted {
                stack.append(source)
            }
        }
        return found
    }

    /// The shortest sequence of arrivals from the start to `target`, with the move into each
    /// after the first; nil when there is none.
    func shortestArrivals(to target: String, in task: SurveyTask) -> [(step: String, moveIn: Edge?)]? {
        guard let first = task.steps.first?.identifier else { return nil }
        var cameFrom: [String: Edge] = [:]
        var seen: Set<String> = [first]
        var queue = [first]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if current == target { break }
            guard let step = task.step(current), movesOn(from: step) else { continue }
            for edge in edges(from: current) {
                guard case .step(let destination) = edge.to, task.step(destination) != nil, seen.insert(destination).inserted else { continue }
                cameFrom[destination] = edge
                queue.append(destination)
            }
        }
        guard seen.contains(target) else { return nil }
        var arrivals: [(step: String, moveIn: Edge?)] = []
        var current = target
        while let edge = cameFrom[current] {
            arrivals.append((current, edge))
            current = edge.from
        }
        arrivals.append((current, nil))
        return arrivals.reversed()
    }

    /// The conditions of the shortest sequence of moves to `target`: each move's condition,
    /// and each skip rule on the way negated (a step shown), or as it is for a completion
    /// step (which only moves on when passed over); the target's own negated last.
    func conditionsOfShortestPath(to target: String, in task: SurveyTask) -> [Predicate] {
        guard let arrivals = shortestArrivals(to: target, in: task) else { return [] }
        var conditions: [Predicate] = []
        for (position, arrival) in arrivals.enumerated() {
            if let condition = arrival.moveIn?.condition { conditions.append(condition) }
            guard let skip = skipRules[arrival.step] else { continue }
            let isLast = position == arrivals.count - 1
            let passedOver = !isLast && task.step(arrival.step)?.isCompletion == true
            conditions.append(passedOver ? skip : .not(skip))
        }
        return conditions
    }
}

/// What every run passes through, and whether a step has one way in or several: for the
/// map's "only if" line, which must not call a step conditional when each branch leads to it.
extension RuleGraph {
    /// The steps every run shows, whatever the answers: no skip rule can pass them over, and
    /// no sequence of moves from the first step reaches the end without them. Conditions are
    /// set aside, so a step may be shown on every run the answers allow and still be missing here.
    public func alwaysShown(in task: SurveyTask) -> Set<String> {
        guard let first = task.steps.first?.identifier else { return [] }
        var shown: Set<String> = []
        for step in task.steps where skipRules[step.identifier] == nil {
            if step.identifier == first || !canEnd(from: first, avoiding: step.identifier, in: task) { shown.insert(step.identifier) }
        }
        return shown
    }

    /// Whether every run shows `step` (see `alwaysShown(in:)`), paying `meter` a unit per step
    /// visited; false as well when the meter runs out.
    func isAlwaysShown(_ step: String, in task: SurveyTask, meter: PathMeter) -> Bool {
        guard let first = task.steps.first?.identifier, skipRules[step] == nil else { return false }
        return step == first || !canEnd(from: first, avoiding: step, in: task, meter: meter) && !meter.stopped
    }

    /// Whether some sequence of moves from `start` ends the run without arriving at `avoided`.
    private func canEnd(from start: String, avoiding avoided: String, in task: SurveyTask, meter: PathMeter? = nil) -> Bool {
        var seen: Set<String> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            if let meter, !meter.spend() { return false }
            guard let step = task.step(current) else { continue }
            // A completion step that is shown ends the run.
            if step.isCompletion { return true }
            for edge in edges(from: current) {
                guard case .step(let destination) = edge.to else { return true }
                if destination != avoided, seen.insert(destination).inserted { stack.append(destination) }
            }
        }
        return false
    }

    /// Whether two or more sequences of moves, none arriving at a step twice, lead from the
    /// first step to `target` (counting stops at two).
    public func hasSeveralWaysIn(to target: String, in task: SurveyTask) -> Bool {
        hasSeveralWaysIn(to: target, in: task, meter: nil)
    }

    /// `hasSeveralWaysIn`, paying `meter` a unit per step visited (the sequences can be many
    /// more than the steps); false as well when the meter runs out.
    func hasSeveralWaysIn(to target: String, in task: SurveyTask, meter: PathMeter?) -> Bool {
        guard let first = task.steps.first?.identifier else { return false }
        var found = 0
        var onPath: Set<String> = []
        func walk(_ current: String) {
            guard found < 2 else { return }
            if let meter, !meter.spend() { return }
            if current == target {
                found += 1
                return
            }
            guard let step = task.step(current), movesOn(from: step), onPath.insert(current).inserted else { return }
            // Each distinct destination once: two rules to the same step are one way in.
            var destinations: [String] = []
            for edge in edges(from: current) {
                if case .step(let destination) = edge.to, !destinations.contains(destination) { destinations.append(destination) }
            }
            for destination in destinations { walk(destination) }
            onPath.remove(current)
        }
        walk(first)
        return found >= 2 && meter?.stopped != true
    }
}
