import Foundation
import SurveyCore

/// A question as the dashboard charts it: its key, where it is asked, and how its answers
/// are counted.
public struct DashboardQuestion: Sendable, Hashable {
    /// How a format's answers are drawn.
    public enum Tally: Sendable, Hashable {
        /// A bar per choice with its count and share; `multiple` when a run may tick several.
        case choices(multiple: Bool)
        /// A histogram of the numbers.
        case numbers
        /// A histogram of the days, in whole weeks.
        case days
        /// A histogram of the times of day, by the hour.
        case minutes
        /// Counted, never shown: text, email, location.
        case counted
    }

    /// The step's identifier for a question step, `step.item` for a form's item: the wide
    /// export's column name without a choice's or an instance's suffix.
    public var key: String
    public var step: String
    public var question: String
    public var format: AnswerFormat
    public var tally: Tally
    /// The count of a repeating form's instances, rather than a question.
    public var isInstanceCount = false
    /// An item of a repeating form: its answers in every instance are counted together.
    public var isRepeated = false

    /// The survey's questions in its order, each repeating form's count before its items.
    public static func all(in task: SurveyTask) -> [DashboardQuestion] {
        var found: [DashboardQuestion] = []
        for step in task.steps {
            let isForm = { if case .form = step.kind { return true } else { return step.questions.count > 1 } }()
            if let repeating = step.repeating {
                let format = AnswerFormat.numeric(NumericFormat(style: .integer, minimum: 0, maximum: Double(repeating.maximum)))
                var count = DashboardQuestion(key: step.identifier, step: step.identifier, question: step.identifier, format: format,
                                              tally: .numbers)
                count.isInstanceCount = true
                found.append(count)
            }
            for question in step.questions {
                var entry = DashboardQuestion(key: isForm ? "\(step.identifier).\(question.identifier)" : step.identifier,
                                              step: step.identifier, question: question.identifier, format: question.answerFormat,
                                              tally: tally(of: question.answerFormat))
                entry.isRepeated = step.repeating != nil
                found.append(entry)
            }
        }
        return found
    }

    /// How each format is counted: a new format is not done until it is named here.
    public static func tally(of format: AnswerFormat) -> Tally {
        switch format {
        case .boolean, .valuePicker, .multipleValuePicker, .textScale: return .choices(multiple: false)
        case .textChoice(let choice): return .choices(multiple: choice.style == .multipleChoice)
        case .imageChoice(let choice): return .choices(multiple: choice.effectiveStyle == .multipleChoice)
        case .scale, .continuousScale, .numeric, .timeInterval, .height, .weight, .age, .ses: return .numbers
        case .date: return .days
        case .timeOfDay: return .minutes
        case .text, .email, .location: return .counted
        }
    }

    /// The rows an answer adds under this question: its own (with its choice or number), and
    /// one per choice ticked when several may be.
    func facts(for answer: Answer, timeZone: TimeZone) -> [AnswerFact] {
        var row = AnswerFact(key: key, outcome: AnswerFact.answered)
        var chosen: [AnswerFact] = []
        switch (tally, answer) {
        case (.choices(multiple: true), .choices(let values)):
            chosen = counted(values).map { AnswerFact(key: key, outcome: AnswerFact.chosen, bucket: $0.formValue) }
        case (.choices, .choices(let values)):
            row.bucket = counted(values).first?.formValue
        case (.choices, .components(let values)):
            row.bucket = values.map(\.formValue).joined(separator: " / ")
        case (.choices, .boolean(let value)):
            row.bucket = value ? "true" : "false"
        case (.numbers, .scale(let value)), (.numbers, .numeric(let value)), (.numbers, .timeInterval(let value)):
            row.number = value
        case (.numbers, .ses(let rung)):
            row.number = Double(rung)
        case (.days, .date(.day(let day))):
            row.number = Double(day.dayNumber)
        case (.days, .date(.instant(let instant))):
            row.number = Double(Self.dayNumber(of: instant, in: timeZone))
        case (.minutes, .timeOfDay(let time)):
            row.number = Double(time.hour * 60 + time.minute)
        default:
            break
        }
        return [row] + chosen
    }

    /// The choices an answer counts under, as the export's columns count them: text typed in
    /// an "other" box counts as the "other" choice, and is never itself a bucket.
    private func counted(_ values: [ChoiceValue]) -> [ChoiceValue] {
        guard let known = format.choiceValues else { return values }
        var counted: [ChoiceValue] = []
        for value in values {
            let choice = known.contains(value) ? value : ExportLayout.otherChoice(of: format)
            if let choice, !counted.contains(choice) { counted.append(choice) }
        }
        return counted
    }

    /// True when every answer is a whole number (a scale's positions, the ladder's rungs, an
    /// integer): a histogram may then give each number a bar of its own.
    public var isIntegral: Bool {
        switch format {
        case .scale, .ses: return true
        case .numeric(let numeric): return numeric.effectiveStyle == .integer
        default: return isInstanceCount
        }
    }

    /// The least and greatest answer the format allows, where it draws a scale: a histogram
    /// spans them, so a value no one chose shows as an empty bar.
    public var bounds: (minimum: Double, maximum: Double)? {
        switch format {
        case .scale(let scale): return (Double(scale.minimum), Double(scale.maximum))
        case .continuousScale(let scale): return (scale.minimum, scale.maximum)
        case .ses: return (1, 10)
        default: return nil
        }
    }

    /// The day an instant falls on in a time zone, as days since 1970-01-01.
    public static func dayNumber(of instant: Date, in timeZone: TimeZone) -> Int {
        let seconds = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        return Int((seconds / 86_400).rounded(.down))
    }
}
