import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore

/// Small random surveys for the property tests: 3 to 12 steps of instructions, boolean,
/// single and multiple choice, numeric and scale questions, a form with a visibility rule and
/// completion steps, with random predicate rules (and, or, not), direct rules, `$end` and skip
/// rules. Destinations point forward unless `loops` is set.
enum RandomSurveys {
    static func make(seed: UInt64, loops: Bool = false) -> SurveyTask {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 3...12, using: &random)
        var steps: [Step] = []
        var questions: [(selector: ResultSelector, format: AnswerFormat)] = []
        for position in 0..<count {
            let identifier = "s\(position)"
            let roll = Int.random(in: 0..<20, using: &random)
            let optional: Bool? = random.chance(0.5) ? false : nil
            switch roll {
            case 0...1:
                steps.append(Step(identifier: identifier, kind: .instruction))
            case 2 where position > 0 && position < count - 1:
                steps.append(Step(identifier: identifier, kind: .completion))
            case 3...4:
                let first = FormQuestion(identifier: "a", answerFormat: .boolean(BooleanFormat()))
                let second = FormQuestion(identifier: "n", optional: random.chance(0.5) ? false : nil, answerFormat: number(&random),
                                          visibleIf: .equals(ResultSelector(step: identifier, item: "a"), .bool(random.chance(0.5))))
                steps.append(Step(identifier: identifier, kind: .form(FormContent(items: [.question(first), .question(second)])),
                                  optional: optional))
                questions.append((ResultSelector(step: identifier, item: "a"), first.answerFormat))
                questions.append((ResultSelector(step: identifier, item: "n"), second.answerFormat))
            default:
                let format = question(&random)
                steps.append(Step(identifier: identifier, kind: .question(QuestionContent(answerFormat: format)), optional: optional))
                questions.append((ResultSelector(step: identifier, item: nil), format))
            }
        }
        var rules: [(stepIdentifier: String, rule: NavigationRule)] = []
        var skips: [(stepIdentifier: String, predicate: Predicate)] = []
        for position in 0..<count {
            let identifier = "s\(position)"
            if random.chance(0.2), !questions.isEmpty {
                skips.append((identifier, predicate(questions, depth: 1, &random)))
            }
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.5, !questions.isEmpty {
                let conditional = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    ConditionalDestination(if: predicate(questions, depth: 2, &random), destination: destination(from: position, count, loops, &random))
                }
                let fallback = random.chance(0.5) ? destination(from: position, count, loops, &random) : nil
                rules.append((identifier, .predicate(rules: conditional, default: fallback)))
            } else if roll < 0.6 {
                rules.append((identifier, .direct(destination(from: position, count, loops, &random))))
            }
        }
        return SurveyTask(identifier: "random-\(seed)", steps: steps, navigationRules: rules, skipRules: skips)
    }

    static func question(_ random: inout SeededGenerator) -> AnswerFormat {
        let choices = ["a", "b", "c"].map { TextChoice(text: LocalizedText($0), value: .string($0)) }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return .boolean(BooleanFormat())
        case 1:
            return .textChoice(TextChoiceFormat(style: .singleChoice, choices: choices))
        case 2:
            let none = TextChoice(text: LocalizedText("none"), value: .string("none"), exclusive: true)
            return .textChoice(TextChoiceFormat(style: .multipleChoice, choices: choices + (random.chance(0.5) ? [none] : [])))
        case 3:
            return number(&random)
        default:
            return .scale(ScaleFormat(minimum: 1, maximum: 5))
        }
    }

    static func number(_ random: inout SeededGenerator) -> AnswerFormat {
        let dontKnow = DontKnowOption(show: random.chance(0.3) ? true : nil)
        if random.chance(0.5) {
            return .numeric(NumericFormat(style: .integer, minimum: 0, maximum: 10, dontKnow: dontKnow))
        }
        return .numeric(NumericFormat(style: .decimal, minimum: 0, maximum: 10, maximumFractionDigits: 1, dontKnow: dontKnow))
    }

    static func destination(from position: Int, _ count: Int, _ loops: Bool, _ random: inout SeededGenerator) -> Destination {
        if random.chance(0.15) { return .end }
        let lowest = loops && random.chance(0.3) ? 0 : position + 1
        guard lowest < count else { return .end }
        return .step("s\(Int.random(in: lowest..<count, using: &random))")
    }

    static func predicate(_ questions: [(selector: ResultSelector, format: AnswerFormat)], depth: Int,
                          _ random: inout SeededGenerator) -> Predicate {
        if depth > 0 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return .not(predicate(questions, depth: depth - 1, &random))
            case 1: return .all([predicate(questions, depth: depth - 1, &random), predicate(questions, depth: depth - 1, &random)])
            case 2: return .any([predicate(questions, depth: depth - 1, &random), predicate(questions, depth: depth - 1, &random)])
            default: break
            }
        }
        let (selector, format) = questions.randomElement(using: &random)!
        if random.chance(0.12) { return .isNil(selector, random.chance(0.5)) }
        switch format {
        case .boolean:
            return .equals(selector, .bool(random.chance(0.5)))
        case .textChoice(let choice):
            let values = choice.choices.map(\.value)
            if choice.style == .multipleChoice, random.chance(0.4) {
                return .choices(selector, Array(values.shuffled(using: &random).prefix(2)))
            }
            if random.chance(0.2) { return .matches(selector, "a|b") }
            return .choice(selector, values.randomElement(using: &random)!)
        case .numeric(let numeric):
            if numeric.dontKnow.show == true, random.chance(0.3) { return .dontKnow(selector, random.chance(0.7)) }
            if random.chance(0.3) { return .equals(selector, .number(Double(Int.random(in: 0...10, using: &random)))) }
            let low = Double(Int.random(in: -1...11, using: &random)) + (random.chance(0.3) ? 0.5 : 0)
            let high = low + Double(Int.random(in: -1...6, using: &random))
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .range(selector, minimum: .number(low), maximum: nil)
            case 1: return .range(selector, minimum: nil, maximum: .number(high))
            default: return .range(selector, minimum: .number(low), maximum: .number(high))
            }
        default:
            let low = Double(Int.random(in: 0...6, using: &random))
            return random.chance(0.5) ? .equals(selector, .number(low)) : .range(selector, minimum: .number(low), maximum: .number(low + 1))
        }
    }
}
