import Foundation
import JSON
import SurveyCore

/// Tests on answers in words: "fever is Yes and temperature.celsius is at least 38.5 °C".
///
/// English has no precedence between "and" and "or", so a test joined with another kind of
/// joint is put in parentheses, and nowhere else: "(either A or B) and C", "either (A and B)
/// or C", but "A and B and C". A negated single test reads as English negates it ("fever is
/// not Yes", "symptoms do not include “Cough”"), a negated "or" as "neither A nor B", and any
/// other negation as "not (…)".
extension PreviewExplainer {
    /// The test in words.
    public func words(_ predicate: SurveyCore.Predicate) -> String {
        phrase(predicate).text
    }

    /// How a phrase is joined, which decides whether it needs parentheses inside another.
    private enum Joint {
        case none, and, or, neither
    }

    private struct Phrase {
        let text: String
        let joint: Joint
    }

    private func phrase(_ predicate: SurveyCore.Predicate) -> Phrase {
        switch Self.reduced(predicate) {
        case .all(let members):
            guard !members.isEmpty else { return Phrase(text: PreviewWords[.always], joint: .none) }
            return Phrase(text: joined(members, PreviewWords[.andSeparator]), joint: .and)
        case .any(let members):
            guard !members.isEmpty else { return Phrase(text: PreviewWords[.never], joint: .none) }
            return Phrase(text: PreviewWords.fill(.either, joined(members, PreviewWords[.orSeparator])), joint: .or)
        case .not(let inner):
            let inner = Self.reduced(inner)
            if let negated = test(inner, negated: true) { return Phrase(text: negated, joint: .none) }
            if case .any(let members) = inner, !members.isEmpty {
                return Phrase(text: PreviewWords.fill(.neither, joined(members, PreviewWords[.norSeparator])), joint: .neither)
            }
            return Phrase(text: PreviewWords.fill(.not, words(inner)), joint: .none)
        case let single:
            return Phrase(text: test(single, negated: false) ?? "", joint: .none)
        }
    }

    /// Members joined by `separator`, each joined phrase among them in parentheses.
    private func joined(_ members: [SurveyCore.Predicate], _ separator: String) -> String {
        members.map { member in
            let part = phrase(member)
            return part.joint == .none ? part.text : PreviewWords.fill(.group, part.text)
        }.joined(separator: separator)
    }

    /// The same test with "and" inside "and" and "or" inside "or" flattened, and a joint of one
    /// member replaced by that member; the meaning does not change.
    static func reduced(_ predicate: SurveyCore.Predicate) -> SurveyCore.Predicate {
        switch predicate {
        case .all(let members):
            let flat = members.map(reduced).flatMap { member -> [SurveyCore.Predicate] in
                if case .all(let inner) = member { return inner }
                return [member]
            }
            return flat.count == 1 ? flat[0] : .all(flat)
        case .any(let members):
            let flat = members.map(reduced).flatMap { member -> [SurveyCore.Predicate] in
                if case .any(let inner) = member { return inner }
                return [member]
            }
            return flat.count == 1 ? flat[0] : .any(flat)
        default:
            return predicate
        }
    }

    // MARK: One test

    /// One test on one answer, or its negation; nil for a joint, and for a negation English
    /// cannot say without changing what happens to a question that was never asked.
    private func test(_ predicate: SurveyCore.Predicate, negated: Bool) -> String? {
        func say(_ positive: PreviewWords.Key, _ negative: PreviewWords.Key, _ values: String...) -> String {
            Catalog.fill(template: PreviewWords[negated ? negative : positive], values)
        }
        switch predicate {
        case .equals(let selector, let expected):
            return say(.isValue, .isNotValue, selector.raw, value(expected, format(of: selector)))
        case .choice(let selector, let choice):
            let asked = format(of: selector)
            let text = value(choice, asked)
            return takesSeveral(asked) ? say(.include, .notInclude, selector.raw, text) : say(.isValue, .isNotValue, selector.raw, text)
        case .choices(let selector, let values):
            guard values.count != 1 else { return test(.choice(selector, values[0]), negated: negated) }
            guard !values.isEmpty else { return negated ? nil : PreviewWords.fill(.hasValue, selector.raw) }
            let asked = format(of: selector)
            let list = values.map { value($0, asked) }.joined(separator: PreviewWords[.listSeparator])
            return say(.includeAll, .notIncludeAll, selector.raw, list)
        case .matches(let selector, let pattern):
            return say(.matches, .notMatches, selector.raw, pattern)
        case .range(let selector, let minimum, let maximum):
            let asked = format(of: selector)
            let low = minimum.map { bound($0, asked) }
            let high = maximum.map { bound($0, asked) }
            let dates = [minimum, maximum].contains { if case .date? = $0 { return true } else { return false } }
            switch (low, high) {
            case (let low?, let high?) where low == high:
                return dates ? say(.onDay, .notOnDay, selector.raw, low) : say(.isValue, .isNotValue, selector.raw, low)
            case (let low?, let high?):
                return say(.between, .notBetween, selector.raw, low, high)
            case (let low?, nil):
                return dates ? say(.onOrAfter, .before, selector.raw, low) : say(.atLeast, .below, selector.raw, low)
            case (nil, let high?):
                return dates ? say(.onOrBefore, .after, selector.raw, high) : say(.atMost, .above, selector.raw, high)
            case (nil, nil):
                return negated ? nil : PreviewWords.fill(.hasValue, selector.raw)
            }
        case .timeRange(let selector, let minimum, let maximum):
            let low = minimum.map { TimeOfDay($0)?.description ?? $0 }
            let high = maximum.map { TimeOfDay($0)?.description ?? $0 }
            switch (low, high) {
            case (let low?, let high?) where low == high: return say(.isValue, .isNotValue, selector.raw, low)
            case (let low?, let high?): return say(.between, .notBetween, selector.raw, low, high)
            case (let low?, nil): return say(.orLater, .before, selector.raw, low)
            case (nil, let high?): return say(.orEarlier, .after, selector.raw, high)
            case (nil, nil): return negated ? nil : PreviewWords.fill(.hasValue, selector.raw)
            }
        case .isNil(let selector, let flag):
            return negated ? nil : PreviewWords.fill(flag ? .unanswered : .answered, selector.raw)
        case .dontKnow(let selector, let flag):
            let button = dontKnowText(format(of: selector))
            if flag { return say(.isValue, .isNotValue, selector.raw, button) }
            return negated ? nil : PreviewWords.fill(.isNotValue, selector.raw, button)
        case .answered(let selector, let flag):
            return say(flag ? .answered : .notAnswered, flag ? .notAnswered : .answered, selector.raw)
        case .compare(let selector, let operation, let expected):
            let text = value(expected, format(of: selector))
            switch operation {
            case .equal: return say(.isValue, .isNotValue, selector.raw, text)
            case .notEqual: return say(.isNotValue, .isValue, selector.raw, text)
            case .greater: return say(.above, .atMost, selector.raw, text)
            case .less: return say(.below, .atLeast, selector.raw, text)
            case .greaterOrEqual: return say(.atLeast, .below, selector.raw, text)
            case .lessOrEqual: return say(.atMost, .above, selector.raw, text)
            }
        case .expression(let source):
            return negated ? nil : PreviewWords.fill(.expression, PreviewWords.fill(.rawValue, source))
        case .everyInstance(let inner):
            guard !negated, let text = test(inner, negated: false) else { return nil }
            return PreviewWords.fill(.everyInstance, text)
        case .not, .all, .any:
            return nil
        }
    }

    /// Whether the question takes several choices, so a test reads "include" rather than "is".
    private func takesSeveral(_ format: AnswerFormat?) -> Bool {
        switch format {
        case .textChoice(let choices)?: return choices.style == .multipleChoice
        case .imageChoice(let images)?: return images.effectiveStyle == .multipleChoice
        case .valuePicker?, .textScale?: return false
        case nil, .boolean?, .multipleValuePicker?, .scale?, .continuousScale?, .numeric?, .timeOfDay?, .date?, .timeInterval?,
             .text?, .email?, .height?, .weight?, .age?, .location?, .ses?:
            return true
        }
    }

    /// The don't-know button as the participant reads it, in quotes.
    func dontKnowText(_ format: AnswerFormat?) -> String {
        quoted(format?.dontKnow?.buttonText) ?? PreviewWords.fill(.quoted, catalog["dontKnow"])
    }

    // MARK: Values

    /// An expected answer: Yes or No (with the question's own label when it has another),
    /// a number with the question's unit, or a text in quotes.
    private func value(_ expected: ExpectedValue, _ format: AnswerFormat?) -> String {
        switch expected {
        case .bool(let flag):
            let word = catalog[flag ? "yes" : "no"]
            guard case .boolean(let labels)? = format, let label = plain(flag ? labels.yes : labels.no), label != word else { return word }
            return PreviewWords.fill(.labelled, word, PreviewWords.fill(.quoted, label))
        case .number(let number):
            return self.number(number, format)
        case .string(let text):
            return PreviewWords.fill(.quoted, text)
        }
    }

    /// A choice by its text in quotes; a value no choice has (a typed "other" text) as the value.
    private func value(_ choice: ChoiceValue, _ format: AnswerFormat?) -> String {
        let choices = Self.choices(of: format)
        let match = choices.first { $0.value == choice } ?? choices.first { $0.value.formValue == choice.formValue }
        if let text = quoted(match?.text) { return text }
        switch choice {
        case .string(let text): return PreviewWords.fill(.rawValue, text)
        case .number(let number): return JSONWriter.number(number)
        }
    }

    /// The choices a format offers, with their texts.
    static func choices(of format: AnswerFormat?) -> [TextChoice] {
        switch format {
        case .textChoice(let choices)?: return choices.choices
        case .valuePicker(let picker)?: return picker.choices
        case .textScale(let scale)?: return scale.choices
        case .imageChoice(let images)?: return images.choices.map(\.asTextChoice)
        case .multipleValuePicker(let pickers)?: return pickers.pickers.flatMap { $0 }
        case nil, .boolean?, .scale?, .continuousScale?, .numeric?, .timeOfDay?, .date?, .timeInterval?, .text?, .email?,
             .height?, .weight?, .age?, .location?, .ses?:
            return []
        }
    }

    /// A range bound: a number as the question records it, or a date.
    private func bound(_ bound: RangeBound, _ format: AnswerFormat?) -> String {
        switch bound {
        case .number(let number): return self.number(number, format)
        case .date(let text): return date(text)
        }
    }

    /// A recorded number as the question shows it: with its unit, as a percent, as hours and
    /// minutes (an interval is recorded in seconds), or as a rung of the ladder.
    func number(_ number: Double, _ format: AnswerFormat?) -> String {
        switch format {
        case .numeric(let numeric)?:
            return withUnit(JSONWriter.number(number), numeric.unit ?? numeric.displayUnit)
        case .height?:
            return withUnit(JSONWriter.number(number), PreviewWords[.centimetres])
        case .weight?:
            return withUnit(JSONWriter.number(number), PreviewWords[.kilograms])
        case .continuousScale(let scale)? where scale.isPercent:
            return PreviewWords.fill(.percent, JSONWriter.number(scale.shown(number)))
        case .timeInterval?:
            return duration(number)
        case .ses?:
            return PreviewWords.fill(.rung, JSONWriter.number(number))
        case nil, .boolean?, .textChoice?, .valuePicker?, .multipleValuePicker?, .imageChoice?, .scale?, .continuousScale?,
             .textScale?, .timeOfDay?, .date?, .text?, .email?, .age?, .location?:
            return JSONWriter.number(number)
        }
    }

    /// "38.5 °C", "25%", or the number alone.
    func withUnit(_ number: String, _ unit: String?) -> String {
        guard let unit, !unit.isEmpty else { return number }
        return unit == "%" ? PreviewWords.fill(.percent, number) : PreviewWords.fill(.withUnit, number, unit)
    }

    /// Seconds as "7 h 30 min"; seconds only where a bound has them.
    func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        var parts: [String] = []
        if whole / 3600 > 0 { parts.append(PreviewWords.fill(.hours, String(whole / 3600))) }
        if whole % 3600 / 60 > 0 { parts.append(PreviewWords.fill(.minutes, String(whole % 3600 / 60))) }
        let rest = seconds - Double(whole - whole % 60)
        if rest > 0 { parts.append(PreviewWords.fill(.seconds, JSONWriter.number(rest))) }
        return parts.isEmpty ? PreviewWords.fill(.minutes, "0") : parts.joined(separator: " ")
    }

    /// "1 March 2026"; a date and time as "1 March 2026 at 09:00" in the survey's zone (in UTC,
    /// named, for a survey without one); text that is neither as it is written.
    func date(_ text: String) -> String {
        if let day = CalendarDate(text) { return catalog.day(day) }
        guard let instant = DateTimeParsing.instant(text, defaultZone: timeZone) else { return text }
        let moment = catalog.moment(instant, timeZone)
        return namesZone ? PreviewWords.fill(.utc, moment) : moment
    }
}
