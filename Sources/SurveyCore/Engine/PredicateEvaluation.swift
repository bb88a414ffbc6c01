import Foundation
import JSON

extension Predicate {
    /// Whether the predicate holds on a result, as ORKResultPredicate does: a test on a result
    /// that is missing (the step was not on the path) or has no answer is false, and the latest
    /// visit of a step is the one tested.
    ///
    /// - Parameter expression: judges a FHIRPath `expression` predicate; without one it is false.
    public func evaluate(on result: TaskResult, timeZone: TimeZone, expression: (String) -> Bool = { _ in false }) -> Bool {
        switch self {
        case .not(let inner):
            return !inner.evaluate(on: result, timeZone: timeZone, expression: expression)
        case .all(let list):
            return list.allSatisfy { $0.evaluate(on: result, timeZone: timeZone, expression: expression) }
        case .any(let list):
            return list.contains { $0.evaluate(on: result, timeZone: timeZone, expression: expression) }
        case .expression(let source):
            return expression(source)
        case .everyInstance(let inner):
            guard let instances = result.instanceResults(for: inner.selectors.first), !instances.isEmpty else { return false }
            return instances.allSatisfy { inner.holds(on: $0, timeZone: timeZone) }
        default:
            // A test on a repeating form's item holds when it holds for any instance.
            if let instances = result.instanceResults(for: selectors.first) {
                return instances.contains { holds(on: $0, timeZone: timeZone) }
            }
            return holds(on: result, timeZone: timeZone)
        }
    }

    /// A test on one answer (not a combination), on the latest visit of its step.
    private func holds(on result: TaskResult, timeZone: TimeZone) -> Bool {
        switch self {
        case .answered(let selector, let flag):
            let answer = result.questionResult(selector)?.answer
            return (answer != nil) == flag
        case .compare(let selector, let operation, let expected):
            return Self.compare(result.questionResult(selector)?.answer, operation, expected, zone: timeZone)
        case .isNil(let selector, let flag):
            guard let question = result.questionResult(selector) else { return false }
            return (question.answer == nil) == flag
        case .dontKnow(let selector, let flag):
            guard let question = result.questionResult(selector) else { return false }
            return (question.answer == .dontKnow) == flag
        default:
            break
        }
        guard let selector = selectors.first, let answer = result.questionResult(selector)?.answer, answer != .dontKnow else { return false }
        switch self {
        case .equals(_, let expected):
            switch (expected, answer) {
            case (.bool(let flag), .boolean(let given)): return flag == given
            case (.string(let text), .text(let given)): return text == given
            case (.number(let number), _): return answer.number == number
            default: return false
            }
        case .choice(_, let value):
            return answer.choiceValues?.contains(value) ?? false
        case .choices(_, let values):
            guard let chosen = answer.choiceValues else { return false }
            return values.allSatisfy(chosen.contains)
        case .matches(_, let pattern):
            let candidates: [String]
            switch answer {
            case .text(let text): candidates = [text]
            case .choices(let values), .components(let values): candidates = values.map(\.formValue)
            default: return false
            }
            return candidates.contains { Self.wholeMatch($0, pattern) }
        case .range(_, let minimum, let maximum):
            if let number = answer.number {
                if case .number(let low)? = minimum, number < low { return false }
                if case .number(let high)? = maximum, number > high { return false }
                if case .date? = minimum { return false }
                if case .date? = maximum { return false }
                return true
            }
            guard case .date(let date) = answer else { return false }
            return Self.dateWithin(date, minimum: minimum, maximum: maximum, zone: timeZone)
        case .timeRange(_, let minimum, let maximum):
            guard case .timeOfDay(let time) = answer else { return false }
            if let low = minimum.flatMap(TimeOfDay.init), time < low { return false }
            if let high = maximum.flatMap(TimeOfDay.init), time > high { return false }
            return true
        default:
            return false
        }
    }

    /// A match that runs out of its budget (BoundedRegex) does not count as a match.
    public static func wholeMatch(_ text: String, _ pattern: String) -> Bool {
        BoundedRegex.wholeMatch(pattern, text) == .match
    }

    /// Date bounds are inclusive; a plain day as a maximum includes the whole of that day.
    static func dateWithin(_ date: DateAnswer, minimum: RangeBound?, maximum: RangeBound?, zone: TimeZone) -> Bool {
        func bound(_ bound: RangeBound?) -> String? {
            if case .date(let text)? = bound { return text }
            return nil
        }
        switch date {
        case .day(let day):
            if let low = bound(minimum) {
                let lowDay = CalendarDate(low) ?? DateTimeParsing.instant(low, defaultZone: zone).map { CalendarDate($0, in: zone) }
                if let lowDay, day < lowDay { return false }
            }
            if let high = bound(maximum) {
                let highDay = CalendarDate(high) ?? DateTimeParsing.instant(high, defaultZone: zone).map { CalendarDate($0, in: zone) }
                if let highDay, day > highDay { return false }
            }
            return true
        case .instant(let instant):
            if let low = bound(minimum), let lowInstant = DateTimeParsing.instant(low, defaultZone: zone), instant < lowInstant { return false }
            if let high = bound(maximum), var highInstant = DateTimeParsing.instant(high, defaultZone: zone) {
                if CalendarDate(high) != nil { highInstant.addTimeInterval(86_399.999) }
                if instant > highInstant { return false }
            }
            return true
        }
    }
}
