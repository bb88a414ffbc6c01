import FHIRPath
import Foundation
import JSON

/// Answers from values that did not come from a form: an `initial` value written in the
/// survey file, and what a FHIRPath expression gave. Either becomes the answer the question's
/// format records, or nothing when it does not fit.
public enum AnswerConversion {
    /// A value as the result would record it: a boolean, a number, a string, or choice values.
    public static func answer(fromJSON value: JSONValue, format: AnswerFormat) -> Answer? {
        switch value {
        case .bool(let flag): return answer(from: [.boolean(flag)], format: format)
        case .number(let number):
            return answer(from: [number == number.rounded() && abs(number) < 1e15 ? .integer(Int(number)) : .decimal(Decimal(number))], format: format)
        case .string(let text): return answer(from: [.string(text)], format: format)
        case .array(let elements):
            guard format.resultType == .choice || format.resultType == .multipleComponent else { return nil }
            var values: [FHIRPathValue] = []
            for element in elements {
                switch element {
                case .string(let text): values.append(.string(text))
                case .number(let number): values.append(.decimal(Decimal(number)))
                default: return nil
                }
            }
            return answer(from: values, format: format)
        case .null, .object: return nil
        }
    }

    /// What an expression gave, as the question's answer; empty gives none.
    public static func answer(from values: [FHIRPathValue], format: AnswerFormat, timeZone: TimeZone = .current) -> Answer? {
        guard let first = values.first else { return nil }
        switch format.resultType {
        case .choice, .multipleComponent:
            guard let known = format.choiceValues else { return nil }
            let chosen = values.compactMap { choice(for: $0, among: known, format: format) }
            guard chosen.count == values.count else { return nil }
            return format.resultType == .choice ? .choices(chosen) : .components(chosen)
        case .boolean:
            if case .boolean(let flag) = first { return .boolean(flag) }
            return nil
        case .numeric:
            return number(first).map(Answer.numeric)
        case .scale:
            return number(first).map(Answer.scale)
        case .timeInterval:
            return number(first).map(Answer.timeInterval)
        case .ses:
            guard let rung = number(first), rung == rung.rounded(), (1...10).contains(rung) else { return nil }
            return .ses(Int(rung))
        case .text:
            return text(first).map(Answer.text)
        case .timeOfDay:
            return text(first).flatMap { TimeOfDay(String($0.prefix(5))) }.map(Answer.timeOfDay)
        case .date:
            guard let text = text(first) else { return nil }
            if case .date(let dateFormat) = format, dateFormat.style == .dateAndTime {
                return DateTimeParsing.instant(text, defaultZone: timeZone).map { .date(.instant($0)) }
            }
            return CalendarDate(String(text.prefix(10))).map { .date(.day($0)) }
        case .location:
            return text(first).map { .location(LocationAnswer(userInput: $0)) }
        }
    }

    static func number(_ value: FHIRPathValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .decimal(let number), .quantity(let number, _): return NSDecimalNumber(decimal: number).doubleValue
        case .node(let node):
            // A Quantity element: its value.
            if case .object(let object) = node, case .number(let number)? = object["value"] { return number }
            return nil
        default: return nil
        }
    }

    static func text(_ value: FHIRPathValue) -> String? {
        switch value {
        case .string(let text), .date(let text), .dateTime(let text), .time(let text): return text
        case .integer, .decimal: return number(value).map(JSONWriter.number)
        default: return nil
        }
    }

    /// The choice a value names: a Coding by its code (and system, when the choice has one), else by value.
    static func choice(for value: FHIRPathValue, among known: [ChoiceValue], format: AnswerFormat) -> ChoiceValue? {
        if case .node(.object(let coding)) = value, case .string(let code)? = coding["code"] {
            let system: String? = if case .string(let given)? = coding["system"] { given } else { nil }
            if case .textChoice(let choiceFormat) = format {
                let match = choiceFormat.choices.first { choice in
                    guard case .string(let choiceCode)? = choice.fhir?["code"] ?? .string(choice.value.formValue), choiceCode == code else { return false }
                    if let system, case .string(let choiceSystem)? = choice.fhir?["system"] { return choiceSystem == system }
                    return true
                }
                if let match { return match.value }
            }
            return known.first { $0.formValue == code }
        }
        if let number = number(value) {
            return known.first { $0 == .number(number) } ?? known.first { $0.formValue == JSONWriter.number(number) }
        }
        if let text = text(value) { return known.first { $0.formValue == text } }
        return nil
    }
}
