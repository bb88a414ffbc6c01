import Foundation
import JSON

/// What one question's fields amount to.
public enum FieldOutcome: Sendable, Hashable {
    /// Nothing was entered.
    case empty
    case answer(Answer)
    case invalid([AnswerIssue])
}
