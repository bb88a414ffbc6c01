import Foundation
import JSON
import SurveyCore

/// One column of the wide export: which question it reads and which part of its answer.
public struct ExportColumn: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        /// The answer itself: a value, a number, a date, a text.
        case answer
        /// 1 when a multiple choice's choice was ticked, else 0.
        case choice(ChoiceValue)
        /// The text typed in a choice's "other" box.
        case other
        case latitude
        case longitude
        /// The value of one picker of a multiple value picker, from 1.
        case component(Int)
    }

    /// `step`, or `step.item` for a form item, then `__part` where a question has several columns.
    public let name: String
    public let step: String
    public let question: String
    public let part: Part
    public let format: AnswerFormat
    public let isOptional: Bool
    /// The item's `visibleIf`, for the codebook's "shown when".
    public let visibleIf: SurveyCore.Predicate?
    /// The answer identifies the participant: the exports leave the column out unless asked.
    public var isIdentifying = false
    /// A repeating form's instance the column holds, from 1; nil for every other column.
    public var instance: Int?
    /// A repeating form's count of instances, named as its step.
    public var isInstanceCount = false

    /// Whether the column holds text (typed, or a choice's string value) rather than numbers
    /// and dates: a spreadsheet must not read such a cell as a formula.
    public var holdsText: Bool {
        switch part {
        case .other: return true
        case .choice, .latitude, .longitude: return false
        case .component:
            return true
        case .answer:
            switch format {
            case .text, .email, .location: return true
            case .textChoice, .valuePicker, .imageChoice, .textScale:
                return format.choiceValues?.contains { if case .string = $0 { return true } else { return false } } ?? true
            case .boolean, .multipleValuePicker, .scale, .continuousScale, .numeric, .timeOfDay, .date, .timeInterval,
                 .height, .weight, .age, .ses:
                return false
            }
        }
    }
}
