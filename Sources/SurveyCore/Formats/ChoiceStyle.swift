import Foundation
import JSON

/// Single or multiple choice.
public enum ChoiceStyle: String, Sendable, Hashable, CaseIterable {
    case singleChoice
    case multipleChoice
}
