import Foundation
import JSON

/// What happens when the participant goes forward from a step (ORKStepNavigationRule).
public enum NavigationRule: Sendable, Hashable {
    /// The first rule whose predicate holds gives the destination; else `default`; else the next step.
    case predicate(rules: [ConditionalDestination], default: Destination?)
    /// Always the same destination.
    case direct(Destination)

    /// Every destination the rule can lead to; nil stands for "the next step in the array".
    public var possibleDestinations: [Destination?] {
        switch self {
        case .direct(let destination):
            return [destination]
        case .predicate(let rules, let fallback):
            return rules.map(\.destination) + [fallback]
        }
    }
}
