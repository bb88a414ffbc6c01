import Foundation
import JSON

/// What a step is, with the keys that only that kind has.
public enum StepKind: Sendable, Hashable {
    case instruction
    case completion
    case question(QuestionContent)
    case form(FormContent)
    case review(ReviewContent)
    case videoInstruction(VideoContent)
    /// A page per section of the task's consent document (ORKVisualConsentStep).
    case visualConsent
    case consentSharing(ConsentSharingContent)
    case consentReview(ConsentReviewContent)
    /// Assigns the run to an arm when it arrives, and shows nothing (docs/panels.md).
    case allocation(AllocationContent)

    public static let typeNames = ["instruction", "completion", "question", "form", "review", "videoInstruction",
                                   "visualConsent", "consentSharing", "consentReview", "allocation"]

    public var typeName: String {
        switch self {
        case .instruction: return "instruction"
        case .completion: return "completion"
        case .question: return "question"
        case .form: return "form"
        case .review: return "review"
        case .videoInstruction: return "videoInstruction"
        case .visualConsent: return "visualConsent"
        case .consentSharing: return "consentSharing"
        case .consentReview: return "consentReview"
        case .allocation: return "allocation"
        }
    }
}
