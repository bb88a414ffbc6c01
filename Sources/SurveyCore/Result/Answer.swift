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

/// A date answer: a calendar day for the `date` style, an instant for `dateAndTime`.
public enum DateAnswer: Sendable, Hashable, Codable {
    case day(CalendarDate)
    case instant(Date)
}

/// A typed address, with coordinates only where the browser offered them.
public struct LocationAnswer: Sendable, Hashable, Codable {
    public var userInput: String
    public var latitude: Double?
    public var longitude: Double?

    public init(userInput: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.userInput = userInput
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Why a run ended (ORKTaskFinishReason).
public enum FinishReason: String, Sendable, Hashable, CaseIterable, Codable {
    case completed
    case saved
    case discarded
    case failed
    case earlyTermination
}
