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

    public static let typeNames = ["instruction", "completion", "question", "form", "review", "videoInstruction"]

    public var typeName: String {
        switch self {
        case .instruction: return "instruction"
        case .completion: return "completion"
        case .question: return "question"
        case .form: return "form"
        case .review: return "review"
        case .videoInstruction: return "videoInstruction"
        }
    }
}
