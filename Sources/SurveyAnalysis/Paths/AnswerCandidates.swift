import Foundation
import JSON
import SurveyCore

/// The answers worth trying for a question, given the tests a path puts on it: a small set
/// drawn from the format and the values the tests name, such that whenever some answer
/// passes the tests, one in the set does too (for the tests this solver reads exactly; see
/// the limits in `PathFinder`).
///
/// Every candidate is written as form fields and read back by the format's own parser, so
/// each one is an answer a participant can give, as its result records it.
struct AnswerCandidates: Sendable {
    let context: AnswerContext

    /// Accepted answers for the question, the plainest first; "I don't know" last where offered.
    /// No answer (nil) is not among them: whether it is allowed depends on the step.
    func answers(for question: Step.Question, tests: [Predicate]) -> [Answer] {
        let constants = TestedValues(tests)
        var seen = Set<Answer>()
        var accepted: [Answer] = []
        // The format's own default first: the answer a participant who changes nothing gives.
        let defaults = AnswerFields.defaults(for: question.answerFormat, name: question.identifier)
        if !defaults.isEmpty, case .answer(let read) = AnswerParser.parse(question.answerFormat, name: question.identifier,
                                                                          fields: FormFields(pairs: defaults), context: context) {
            seen.insert(read)
            accepted.append(read)
        }
        for answer in proposals(question.answerFormat, constants) {
            guard let read = accept(answer, for: question), seen.insert(read).inserted else { continue }
            accepted.append(read)
        }
        if question.answerFormat.showsDontKnow, let read = accept(.dontKnow, for: question), seen.insert(read).inserted {
            accepted.append(read)
        }
        return accepted
    }

    /// The answer as the question records it when its fields are posted, if it accepts them.
    func accept(_ answer: Answer, for question: Step.Question) -> Answer? {
        let fields = AnswerFields.fields(for: answer, format: question.answerFormat, name: question.identifier, context: context)
        guard case .answer(let read) = AnswerParser.parse(question.answerFormat, name: question.identifier,
                                                         fields: FormFields(pairs: fields), context: context) else { return nil }
        return read
    }

    /// Answers to try, before the format reads them back.
    private func proposals(_ format: AnswerFormat, _ tested: TestedValues) -> [Answer] {
        switch format {
        case .boolean:
            return [.boolean(true), .boolean(false)]
        case .textChoice(let format):
            return ChoiceCandidates(choices: format.choices, multiple: format.style == .multipleChoice, tested: tested).answers
        case .valuePicker(let format):
            return ChoiceCandidates(choices: format.choices, multiple: false, tested: tested).answers
        case .imageChoice(let format):
            return ChoiceCandidates(choices: format.choices.map(\.asTextChoice), multiple: format.effectiveStyle == .multipleChoice,
                                    tested: tested).answers
        case .textScale(let format):
            return ChoiceCandidates(choices: format.choices, multiple: false, tested: tested).answers
        case .multipleValuePicker(let format):
            return ChoiceCandidates.components(format.pickers, tested: tested)
        case .scale(let format):
            return format.values.map { .scale(Double($0)) }
        case .ses:
            return (1...SESFormat.rungCount).map(Answer.ses)
        case .continuousScale, .numeric, .age, .height, .weight, .timeInterval:
            return NumberCandidates.answers(format, tested: tested, context: context)
        case .timeOfDay(let format):
            return TimeCandidates.times(format, tested: tested)
        case .date(let format):
            return TimeCandidates.dates(format, tested: tested, context: context)
        case .text(let format):
            var texts = tested.texts
            if let expression = format.validationRegularExpression { texts += RegexExamples.examples(of: expression) }
            if let text = format.defaultTextAnswer { texts.append(text) }
            return (texts + ["Some text", "a", "1"]).map(Answer.text)
        case .email:
            return (tested.texts + ["participant@example.com"]).map(Answer.text)
        case .location:
            return (tested.texts + ["1 Main Street"]).map { .location(LocationAnswer(userInput: $0)) }
        }
    }
}

/// The values a set of tests names: the constants a candidate must land on, beside or between.
struct TestedValues {
    var numbers: [Double] = []
    /// Strings tested for equality, and strings the tested patterns may match.
    var texts: [String] = []
    var choiceValues: [ChoiceValue] = []
    var patterns: [String] = []
    var dates: [String] = []
    var times: [TimeOfDay] = []

    init(_ tests: [Predicate]) {
        for test in tests {
            switch test {
            case .equals(_, .number(let number)): numbers.append(number)
            case .equals(_, .string(let text)): texts.append(text)
            case .choice(_, let value): choiceValues.append(value)
            case .choices(_, let values): choiceValues += values
            case .matches(_, let pattern):
                patterns.append(pattern)
                texts += RegexExamples.examples(of: pattern)
            case .range(_, let minimum, let maximum):
                for bound in [minimum, maximum] {
                    switch bound {
                    case .number(let number)?: numbers.append(number)
                    case .date(let text)?: dates.append(text)
                    case nil: break
                    }
                }
            case .timeRange(_, let minimum, let maximum):
                times += [minimum, maximum].compactMap { $0.flatMap(TimeOfDay.init) }
            case .compare(_, _, .number(let number)):
                numbers.append(number)
                choiceValues.append(.number(number))
            case .compare(_, _, .string(let text)):
                texts.append(text)
                choiceValues.append(.string(text))
                if CalendarDate(String(text.prefix(10))) != nil { dates.append(text) }
                // A year or a month: the days at its edges, where the order is decided.
                if let span = CalendarDate.span(ofPartial: text) { dates += [span.lowerBound.description, span.upperBound.description] }
                if let time = TimeOfDay(String(text.prefix(5))) { times.append(time) }
            default:
                break
            }
        }
    }
}
