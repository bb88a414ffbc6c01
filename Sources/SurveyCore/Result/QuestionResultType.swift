import Foundation
import JSON

/// The kind of question result, the `type` key of a result (spec §3 and §5).
public enum QuestionResultType: String, Sendable, Hashable, CaseIterable, Codable {
    case boolean
    case choice
    case multipleComponent
    case scale
    case numeric
    case timeOfDay
    case date
    case timeInterval
    case text
    case location
    case ses

    /// ResearchKit's class for this kind of result.
    public var researchKitClass: String {
        switch self {
        case .boolean: return "ORKBooleanQuestionResult"
        case .choice: return "ORKChoiceQuestionResult"
        case .multipleComponent: return "ORKMultipleComponentQuestionResult"
        case .scale: return "ORKScaleQuestionResult"
        case .numeric: return "ORKNumericQuestionResult"
        case .timeOfDay: return "ORKTimeOfDayQuestionResult"
        case .date: return "ORKDateQuestionResult"
        case .timeInterval: return "ORKTimeIntervalQuestionResult"
        case .text: return "ORKTextQuestionResult"
        case .location: return "ORKLocationQuestionResult"
        case .ses: return "ORKSESQuestionResult"
        }
    }
}
