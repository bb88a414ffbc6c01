import Foundation
import JSON
import SurveyAnalysis
import SurveyCore

/// Why a step cannot be reached, in one plain English line for the researcher at the terminal.
enum ReachWords {
    static func sentence(_ reason: UnreachableReason, step: String) -> String {
        let opening = "The step \"\(step)\" cannot be reached"
        switch reason {
        case .noPath:
            return "\(opening): no rule or step order leads to it, whatever the answers."
        case .conditionsNeverHold(let conditions):
            guard !conditions.isEmpty else { return "\(opening): no answers meet the conditions on the way to it." }
            let words = conditions.map { describe($0) }.joined(separator: "; ")
            return "\(opening): no answers meet all the conditions on the way to it together (shortest way: \(words))."
        case .alwaysSkipped(let predicate):
            return "\(opening): its skip rule (\(describe(predicate))) holds whenever a participant arrives there."
        }
    }

    /// A predicate as a short phrase: `fever is true`, `temp is at least 39`, `not (…)`.
    static func describe(_ predicate: SurveyCore.Predicate) -> String {
        switch predicate {
        case .equals(let selector, let value):
            return "\(selector) is \(describe(value))"
        case .choice(let selector, let value):
            return "\(selector) includes \(quoted(value))"
        case .choices(let selector, let values):
            return "\(selector) includes all of \(values.map(quoted).joined(separator: ", "))"
        case .matches(let selector, let pattern):
            return "\(selector) matches /\(pattern)/"
        case .range(let selector, let minimum, let maximum):
            return "\(selector) is \(bounds(minimum.map(describe), maximum.map(describe)))"
        case .timeRange(let selector, let minimum, let maximum):
            return "\(selector) is \(bounds(minimum, maximum))"
        case .isNil(let selector, let flag):
            return flag ? "\(selector) has no answer" : "\(selector) has an answer"
        case .dontKnow(let selector, let flag):
            return flag ? "\(selector) is \"I don't know\"" : "\(selector) is not \"I don't know\""
        case .answered(let selector, let flag):
            return flag ? "\(selector) has an answer" : "\(selector) has no answer"
        case .compare(let selector, let operation, let value):
            return "\(selector) \(operation.rawValue) \(describe(value))"
        case .expression(let source):
            return "the expression \"\(source)\" is true"
        case .not(let inner):
            return "not (\(describe(inner)))"
        case .everyInstance(let inner):
            return "in every instance, \(describe(inner))"
        case .all(let parts):
            return parts.isEmpty ? "always" : parts.map { group($0) }.joined(separator: " and ")
        case .any(let parts):
            return parts.isEmpty ? "never" : "either " + parts.map { group($0) }.joined(separator: " or ")
        }
    }

    private static func group(_ predicate: SurveyCore.Predicate) -> String {
        switch predicate {
        case .all, .any: return "(\(describe(predicate)))"
        default: return describe(predicate)
        }
    }

    private static func bounds(_ minimum: String?, _ maximum: String?) -> String {
        switch (minimum, maximum) {
        case (let low?, let high?): return "between \(low) and \(high)"
        case (let low?, nil): return "at least \(low)"
        case (nil, let high?): return "at most \(high)"
        case (nil, nil): return "any value"
        }
    }

    private static func describe(_ value: ExpectedValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return JSONWriter.number(number)
        case .string(let text): return "\"\(text)\""
        }
    }

    private static func describe(_ bound: RangeBound) -> String {
        switch bound {
        case .number(let number): return JSONWriter.number(number)
        case .date(let text): return text
        }
    }

    private static func quoted(_ value: ChoiceValue) -> String {
        switch value {
        case .string(let text): return "\"\(text)\""
        case .number(let number): return JSONWriter.number(number)
        }
    }
}
