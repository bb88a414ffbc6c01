import Foundation
import JSON

/// What kind of answer a question takes, with ResearchKit's options for each kind. Each case's
/// value lives in its own file of this folder with everything the core knows about it.
public enum AnswerFormat: Sendable, Hashable {
    case boolean(BooleanFormat)
    case textChoice(TextChoiceFormat)
    case valuePicker(ValuePickerFormat)
    case multipleValuePicker(MultipleValuePickerFormat)
    case imageChoice(ImageChoiceFormat)
    case scale(ScaleFormat)
    case continuousScale(ContinuousScaleFormat)
    case textScale(TextScaleFormat)
    case numeric(NumericFormat)
    case timeOfDay(TimeOfDayFormat)
    case date(DateFormat)
    case timeInterval(TimeIntervalFormat)
    case text(TextFormat)
    case email(EmailFormat)
    case height(HeightFormat)
    case weight(WeightFormat)
    case age(AgeFormat)
    case location(LocationFormat)
    case ses(SESFormat)

    /// Every format, in the spec's order.
    static let registry: [any AnswerFormatRules.Type] = Kind.allCases.map(\.rules)

    /// The format's own rules.
    var rules: any AnswerFormatRules {
        switch self {
        case .boolean(let format): return format
        case .textChoice(let format): return format
        case .valuePicker(let format): return format
        case .multipleValuePicker(let format): return format
        case .imageChoice(let format): return format
        case .scale(let format): return format
        case .continuousScale(let format): return format
        case .textScale(let format): return format
        case .numeric(let format): return format
        case .timeOfDay(let format): return format
        case .date(let format): return format
        case .timeInterval(let format): return format
        case .text(let format): return format
        case .email(let format): return format
        case .height(let format): return format
        case .weight(let format): return format
        case .age(let format): return format
        case .location(let format): return format
        case .ses(let format): return format
        }
    }

    /// The `type` discriminator of every format, in the spec's order.
    public static let typeNames = registry.map { $0.typeName }

    public var typeName: String { type(of: rules).typeName }

    /// The question result type this format records (spec §3).
    public var resultType: QuestionResultType { type(of: rules).resultType }

    /// The don't-know option, for the formats where ResearchKit allows one.
    public var dontKnow: DontKnowOption? { rules.dontKnowOption }

    /// True when the participant is offered an "I don't know" answer.
    public var showsDontKnow: Bool { dontKnow?.show == true }

    /// The values a participant can pick, for the choice-like formats.
    public var choiceValues: [ChoiceValue]? { rules.choiceValues }

    /// The choices each run shows in its own order, when the format shuffles them.
    public var shuffledChoices: TextChoiceFormat? {
        if case .textChoice(let format) = self, format.shuffle == true { return format }
        return nil
    }

    public var shuffles: Bool { shuffledChoices != nil }

    /// The choices that may be hidden by their `visibleIf`, in a format that can hide them.
    public var filteredChoices: [TextChoice]? {
        let choices: [TextChoice]
        switch self {
        case .textChoice(let format): choices = format.choices
        case .valuePicker(let format): choices = format.choices
        default: return nil
        }
        return choices.contains { $0.visibleIf != nil } ? choices : nil
    }

    /// The format with its choices changed, for the formats whose choices may be hidden.
    public func mappingChoices(_ transform: ([TextChoice]) -> [TextChoice]) -> AnswerFormat {
        switch self {
        case .textChoice(var format):
            format.choices = transform(format.choices)
            return .textChoice(format)
        case .valuePicker(var format):
            format.choices = transform(format.choices)
            return .valuePicker(format)
        default:
            return self
        }
    }

    /// The numbers the format can record, where it bounds them (an open end is infinite).
    public var range: ClosedRange<Double>? { rules.recordedRange }

    /// Every author text the format shows, the don't-know button's included.
    public var texts: [LocalizedText] { (rules.texts + [dontKnow?.buttonText]).compactMap { $0 } }
}
