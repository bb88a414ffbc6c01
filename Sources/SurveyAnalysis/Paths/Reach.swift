import Foundation
import JSON
import SurveyCore

/// Whether a step can be reached, with the answers that reach it or the reason none do.
public enum Reach: Sendable {
    case reachable(Witness)
    case unreachable(UnreachableReason)
}
