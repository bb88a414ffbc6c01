import Foundation
import JSON
import SurveyCore

/// The paths of a survey's steps as the preview's map shows them, worked out in the order of
/// the steps within one `PathBudget`: when the budget runs out, the steps from there on are
/// left unchecked, and the map says so rather than waiting or guessing.
public struct PathMap: Sendable {
    /// What the map says of one step.
    public struct Entry: Sendable {
        /// The answers that reach the step, or why none do.
        public let reach: Reach
        /// Every run shows the step, whatever the answers (`RuleGraph.alwaysShown`).
        public let alwaysShown: Bool
        /// Several sequences of moves lead to the step (`RuleGraph.hasSeveralWaysIn`).
        public let severalWaysIn: Bool
    }

    /// The steps checked, by identifier.
    public let entries: [String: Entry]
    /// How many steps were checked, from the first in order.
    public let checked: Int
    /// The first step left unchecked, when the budget ran out before the last.
    public let firstUnchecked: String?
    /// The units of work spent.
    public let work: Int

    /// True when the budget ran out before every step was checked.
    public var stoppedEarly: Bool { firstUnchecked != nil }

    public init(finder: PathFinder, budget: PathBudget) {
        let task = finder.task
        let meter = PathMeter(budget)
        let memo = SolverMemo()
        var entries: [String: Entry] = [:]
        var checked = 0
        var firstUnchecked: String?
        for step in task.steps {
            let identifier = step.identifier
            if entries[identifier] == nil {
                guard let reach = finder.search(for: identifier, memo: memo, meter: meter) else {
                    firstUnchecked = identifier
                    break
                }
                var alwaysShown = false
                var severalWaysIn = false
                if case .reachable = reach {
                    alwaysShown = finder.graph.isAlwaysShown(identifier, in: task, meter: meter)
                    if !alwaysShown { severalWaysIn = finder.graph.hasSeveralWaysIn(to: identifier, in: task, meter: meter) }
                }
                guard !meter.stopped else {
                    firstUnchecked = identifier
                    break
                }
                entries[identifier] = Entry(reach: reach, alwaysShown: alwaysShown, severalWaysIn: severalWaysIn)
            }
            checked += 1
        }
        self.entries = entries
        self.checked = checked
        self.firstUnchecked = firstUnchecked
        work = meter.spent
    }
}
