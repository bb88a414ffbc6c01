import Foundation
import JSON
import SurveyCore

/// Why no participant can arrive at a step.
public enum UnreachableReason: Sendable, Hashable {
    /// No sequence of moves leads to the step, whatever the answers (the graph alone).
    case noPath
    /// Paths exist, but each needs conditions that no answers can satisfy together; the
    /// conditions of the shortest such path.
    case conditionsNeverHold([SurveyCore.Predicate])
    /// Every path that arrives needs the step's own skip rule to hold.
    case alwaysSkipped(SurveyCore.Predicate)
}
