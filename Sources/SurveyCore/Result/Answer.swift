import Foundation
import JSON

/// A typed answer, as the participant gave it and the result records it.
public enum Answer: Sendable, Hashable, Codable {
    case boolean(Bool)
    /// The chosen values of a choice, value picker, image choice or text scale.
    case choices([ChoiceValue])
    /// One value per picker of a multiple value picker.
    case components([ChoiceValue])
    case scale(Double)
    case numeric(Double)
    case timeOfDay(TimeOfDay)
    case date(DateAnswer)
    /// Seconds.
    case timeInterval(Double)
    case text(String)
    case location(LocationAnswer)
    /// The rung picked, 1 (bottom) to 10 (top).
    case ses(Int)
    /// "I don't know" (ORKDontKnowAnswer).
    case dontKnow

    public var isDontKnow: Bool { self == .dontKnow }

    /// The number for numeric-like answers, for predicates.
    var number: Double? {
        switch self {
        case .scale(let value), .numeric(let value), .timeInterval(let value): return value
        case .ses(let rung): return Double(rung)
        default: return nil
        }
    }

    /// The values for choice-like answers, for predicates.
    var choiceValues: [ChoiceValue]? {
        switch self {
        case .choices(let values), .components(let values): return values
        default: return nil
        }
    }
}
