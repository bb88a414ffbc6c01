import Foundation
import JSON
import SurveyCore

/// The wide export's question columns, in survey order, and a run's cells under them.
public struct ExportLayout: Sendable {
    public let columns: [ExportColumn]

    /// - Parameter instanceCounts: how many instances of each repeating form the columns hold
    ///   (the most any exported run has); a repeating form always has its count column.
    public init(task: SurveyTask, instanceCounts: [String: Int] = [:]) {
        var columns: [ExportColumn] = []
        for step in task.steps {
            // A form's items, and the consent review's fields, are named under their step.
            let isForm = { if case .form = step.kind { return true } else { return step.questions.count > 1 } }()
            // A repeating form: its count, then each instance's columns, numbered from 1 (`meds.dose.2`).
            let instances: [Int?]
            if let repeating = step.repeating {
                var count = ExportColumn(name: step.identifier, step: step.identifier, question: step.identifier, part: .answer,
                                         format: .numeric(NumericFormat(style: .integer, minimum: 0, maximum: Double(repeating.maximum))),
                                         isOptional: false, visibleIf: nil)
                count.isInstanceCount = true
                columns.append(count)
                let given = min(instanceCounts[step.identifier] ?? 0, repeating.maximum)
                instances = given > 0 ? Array(1...given) : []
            } else {
                instances = [nil]
            }
            for instance in instances {
                for question in step.questions {
                    let base = isForm ? "\(step.identifier).\(question.identifier)" : step.identifier
                    let name = instance.map { "\(base).\($0)" } ?? base
                    func column(_ suffix: String?, _ part: ExportColumn.Part) -> ExportColumn {
                        var column = ExportColumn(name: suffix.map { "\(name)__\($0)" } ?? name, step: step.identifier, question: question.identifier,
                                                  part: part, format: question.answerFormat, isOptional: question.isOptional,
                                                  visibleIf: question.visibleIf)
                        column.isIdentifying = question.behaviour.isIdentifying
                        column.instance = instance
                        return column
                    }
                    columns += Self.parts(of: question.answerFormat).map { column($0.suffix, $0.part) }
                }
            }
        }
        // Names that come out the same (a step `a.b` and a form `a`'s item `b`; a choice valued
        // `other_text` beside the "other" box) are told apart by a number: `a.b_2`.
        var seen: [String: Int] = [:]
        self.columns = columns.map { column in
            seen[column.name, default: 0] += 1
            guard let count = seen[column.name], count > 1 else { return column }
            var renamed = "\(column.name)_\(count)"
            while seen[renamed] != nil { renamed += "_\(count)" }
            seen[renamed] = 1
            var renamedColumn = ExportColumn(name: renamed, step: column.step, question: column.question, part: column.part,
                                             format: column.format, isOptional: column.isOptional, visibleIf: column.visibleIf)
            renamedColumn.isIdentifying = column.isIdentifying
            renamedColumn.instance = column.instance
            renamedColumn.isInstanceCount = column.isInstanceCount
            return renamedColumn
        }
    }

    /// Raises `counts` to the instances each repeating form has in `run` (on its path).
    public static func countInstances(of run: TaskRun, into counts: inout [String: Int]) {
        for visit in run.path {
            guard let instances = visit.instances else { continue }
            counts[visit.stepIdentifier] = max(counts[visit.stepIdentifier] ?? 0, instances.count)
        }
    }

    /// The columns a format takes: one, except multiple choice (one per choice), location
    /// (address, latitude, longitude), the multiple value picker (one per picker) and choices
    /// with an "other" box (its text beside the choice).
    static func parts(of format: AnswerFormat) -> [(suffix: String?, part: ExportColumn.Part)] {
        switch format {
        case .textChoice(let choice):
            let hasOther = choice.choices.contains { $0.other != nil }
            var parts: [(String?, ExportColumn.Part)] = choice.style == .multipleChoice
                ? choice.choices.map { ($0.value.formValue, .choice($0.value)) } : [(nil, .answer)]
            if hasOther { parts.append(("other_text", .other)) }
            return parts
        case .imageChoice(let choice) where choice.effectiveStyle == .multipleChoice:
            return choice.choices.map { ($0.value.formValue, .choice($0.value)) }
        case .location:
            return [(nil, .answer), ("latitude", .latitude), ("longitude", .longitude)]
        case .multipleValuePicker(let picker):
            return picker.pickers.indices.map { ("\($0 + 1)", .component($0 + 1)) }
        case .boolean, .valuePicker, .imageChoice, .scale, .continuousScale, .textScale, .numeric, .timeOfDay, .date,
             .timeInterval, .text, .email, .height, .weight, .age, .ses:
            return [(nil, .answer)]
        }
    }

    /// A run's cells under `columns`, in the survey's time zone.
    public func cells(_ answers: RunAnswers, timeZone: TimeZone) -> [ExportCell] {
        columns.map { column in
            switch answers.outcome(step: column.step, question: column.question, instance: column.instance, count: column.isInstanceCount) {
            case .missing(let reason): return .missing(reason)
            case .answered(let result):
                guard let answer = result.answer, let text = Self.cell(answer, column: column, timeZone: timeZone) else {
                    // An answer without this part (no coordinates, no "other" text): empty, not a reason.
                    return .value("")
                }
                return .value(text)
            }
        }
    }

    /// The text of one part of an answer; nil where the answer has no such part.
    static func cell(_ answer: Answer, column: ExportColumn, timeZone: TimeZone) -> String? {
        switch (answer, column.part) {
        case (.choices(let values), .choice(let value)):
            if values.contains(value) { return "1" }
            // Typed "other" text stands for the "other" choice.
            let unmatched = values.contains { chosen in !(column.format.choiceValues ?? []).contains(chosen) }
            return unmatched && otherChoice(of: column.format) == value ? "1" : "0"
        case (.choices(let values), .other):
            let known = column.format.choiceValues ?? []
            return values.first { !known.contains($0) }?.formValue
        case (.choices(let values), .answer):
            guard let first = values.first else { return nil }
            if let known = column.format.choiceValues, !known.contains(first), let other = otherChoice(of: column.format) {
                return other.formValue
            }
            return first.formValue
        case (.components(let values), .component(let position)):
            return values.indices.contains(position - 1) ? values[position - 1].formValue : nil
        case (.location(let location), .answer): return location.userInput
        case (.location(let location), .latitude): return location.latitude.map(JSONWriter.number)
        case (.location(let location), .longitude): return location.longitude.map(JSONWriter.number)
        case (_, .answer): return plain(answer, timeZone: timeZone)
        default: return nil
        }
    }

    /// A one-column answer as its canonical text: numbers as JSON writes them, booleans 1 and 0,
    /// dates ISO 8601 (an instant with the survey's offset), times of day `HH:MM`.
    public static func plain(_ answer: Answer, timeZone: TimeZone) -> String? {
        switch answer {
        case .boolean(let flag): return flag ? "1" : "0"
        case .scale(let value), .numeric(let value), .timeInterval(let value): return JSONWriter.number(value)
        case .ses(let rung): return String(rung)
        case .text(let text): return text
        case .timeOfDay(let time): return time.description
        case .date(.day(let day)): return day.description
        case .date(.instant(let instant)): return DateTimeParsing.string(instant, in: timeZone)
        case .choices(let values), .components(let values): return values.map(\.formValue).joined(separator: ";")
        case .location(let location): return location.userInput
        case .dontKnow: return nil
        }
    }

    /// The choice whose "other" box typed text stands for.
    static func otherChoice(of format: AnswerFormat) -> ChoiceValue? {
        guard case .textChoice(let choice) = format else { return nil }
        return choice.choices.first { $0.other != nil }?.value
    }
}
