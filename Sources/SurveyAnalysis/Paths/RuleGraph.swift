import Foundation
import JSON
import SurveyCore

/// The moves of a survey: from each step, where it can go and on what condition.
///
/// Every step has its moves, completion steps included: a completion step that is shown ends
/// the run, but one passed over by its skip rule moves on by its own rule, as the navigator does.
public struct RuleGraph: Sendable {
    public struct Edge: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// No rule: the next step in the array.
            case next
            /// A direct rule.
            case always
            /// The nth conditional destination of a predicate rule (0-based).
            case rule(Int)
            /// A predicate rule's default (or the next step when it has none).
            case otherwise
        }

        /// The step identifier the move leaves from.
        public let from: String
        /// `.step(id)` or `.end`.
        public let to: Destination
        public let kind: Kind
        /// The rule's own predicate for `.rule(n)` (nil otherwise). Whether the move is taken also
        /// needs the earlier rules of the same step not to hold: see `condition`.
        public let predicate: SurveyCore.Predicate?
        /// Everything that must hold for this move: the predicate with every earlier rule's
        /// predicate negated (for `.otherwise`: all of them negated); nil when the move is unconditional.
        public let condition: SurveyCore.Predicate?

        public init(from: String, to: Destination, kind: Kind, predicate: SurveyCore.Predicate?, condition: SurveyCore.Predicate?) {
            self.from = from
            self.to = to
            self.kind = kind
            self.predicate = predicate
            self.condition = condition
        }
    }

    public let edges: [Edge]
    /// Skip rules: a step is passed over when its predicate holds.
    public let skipRules: [String: SurveyCore.Predicate]
    private let edgesByStep: [String: [Edge]]

    public init(task: SurveyTask) {
        var edges: [Edge] = []
        var byStep: [String: [Edge]] = [:]
        for (index, step) in task.steps.enumerated() {
            let next: Destination = index + 1 < task.steps.count ? .step(task.steps[index + 1].identifier) : .end
            let moves = Self.moves(from: step.identifier, rule: task.navigationRule(for: step.identifier), next: next)
            edges += moves
            byStep[step.identifier, default: []] += moves
        }
        var skips: [String: Predicate] = [:]
        for step in task.steps {
            if let predicate = task.skipRule(for: step.identifier) { skips[step.identifier] = predicate }
        }
        self.edges = edges
        self.edgesByStep = byStep
        self.skipRules = skips
    }

    /// The moves out of a step, in the order its rule tries them.
    public func edges(from step: String) -> [Edge] {
        edgesByStep[step] ?? []
    }

    /// The moves a rule allows, each with the condition under which the navigator takes it.
    static func moves(from step: String, rule: NavigationRule?, next: Destination) -> [Edge] {
        switch rule {
        case nil:
            return [Edge(from: step, to: next, kind: .next, predicate: nil, condition: nil)]
        case .direct(let destination)?:
            return [Edge(from: step, to: destination, kind: .always, predicate: nil, condition: nil)]
        case .predicate(let rules, let fallback)?:
            var moves: [Edge] = []
            var earlier: [Predicate] = []
            for (position, entry) in rules.enumerated() {
                let condition = earlier.isEmpty ? entry.predicate : .all(earlier.map { .not($0) } + [entry.predicate])
                moves.append(Edge(from: step, to: entry.destination, kind: .rule(position), predicate: entry.predicate, condition: condition))
                earlier.append(entry.predicate)
            }
            let otherwise: Predicate?
            switch earlier.count {
            case 0: otherwise = nil
            case 1: otherwise = .not(earlier[0])
            default: otherwise = .all(earlier.map { .not($0) })
            }
            moves.append(Edge(from: step, to: fallback ?? next, kind: .otherwise, predicate: nil, condition: otherwise))
            return moves
        }
    }
}
