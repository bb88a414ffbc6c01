import Foundation
import JSON
import SurveyCore

/// Why a question of a run has no answer. The four are different facts, and an export keeps
/// them apart: the long CSV names them, the R and SPSS syntax read them as labelled codes.
public enum MissingReason: String, Sendable, Hashable, CaseIterable {
    /// A rule passed the step over, the run's path went round it, or `visibleIf` hid the item.
    case notShown = "not_shown"
    /// Shown, and the participant pressed Skip or left an optional item empty.
    case skipped
    /// The format's "I don't know" answer.
    case dontKnow = "dont_know"
    /// The run was saved, discarded or left before the step.
    case notReached = "not_reached"

    /// The code that stands for the reason where a cell must hold a number: outside any
    /// answer a scale, a choice or a count would record.
    public var code: Int {
        switch self {
        case .notShown: return -91
        case .skipped: return -92
        case .dontKnow: return -93
        case .notReached: return -94
        }
    }

    /// The reason's label, in the codebook and the R and SPSS value labels.
    public var label: String {
        switch self {
        case .notShown: return "not shown"
        case .skipped: return "skipped"
        case .dontKnow: return "don't know"
        case .notReached: return "not reached"
        }
    }
}
