import Foundation

/// What kind of answer a question takes, with ResearchKit's options for each kind.
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

    /// The `type` discriminator of every format, in the spec's order.
    public static let typeNames = [
        "boolean", "textChoice", "valuePicker", "multipleValuePicker", "imageChoice", "scale",
        "continuousScale", "textScale", "numeric", "timeOfDay", "date", "timeInterval", "text",
        "email", "height", "weight", "age", "location", "ses",
    ]

    public var typeName: String {
        switch self {
        case .boolean: return "boolean"
        case .textChoice: return "textChoice"
        case .valuePicker: return "valuePicker"
        case .multipleValuePicker: return "multipleValuePicker"
        case .imageChoice: return "imageChoice"
        case .scale: return "scale"
        case .continuousScale: return "continuousScale"
        case .textScale: return "textScale"
        case .numeric: return "numeric"
        case .timeOfDay: return "timeOfDay"
        case .date: return "date"
        case .timeInterval: return "timeInterval"
        case .text: return "text"
        case .email: return "email"
        case .height: return "height"
        case .weight: return "weight"
        case .age: return "age"
        case .location: return "location"
        case .ses: return "ses"
        }
    }

    /// The question result type this format records (spec §3).
    public var resultType: QuestionResultType {
        switch self {
        case .boolean: return .boolean
        case .textChoice, .valuePicker, .imageChoice, .textScale: return .choice
        case .multipleValuePicker: return .multipleComponent
        case .scale, .continuousScale: return .scale
        case .numeric, .height, .weight, .age: return .numeric
        case .timeOfDay: return .timeOfDay
        case .date: return .date
        case .timeInterval: return .timeInterval
        case .text, .email: return .text
        case .location: return .location
        case .ses: return .ses
        }
    }

    /// The don't-know option, for the formats where ResearchKit allows one.
    public var dontKnow: DontKnowOption? {
        switch self {
        case .scale(let format): return format.dontKnow
        case .continuousScale(let format): return format.dontKnow
        case .textScale(let format): return format.dontKnow
        case .numeric(let format): return format.dontKnow
        case .timeOfDay(let format): return format.dontKnow
        case .date(let format): return format.dontKnow
        case .timeInterval(let format): return format.dontKnow
        case .text(let format): return format.dontKnow
        case .email(let format): return format.dontKnow
        case .height(let format): return format.dontKnow
        case .weight(let format): return format.dontKnow
        case .age(let format): return format.dontKnow
        case .ses(let format): return format.dontKnow
        case .boolean, .textChoice, .valuePicker, .multipleValuePicker, .imageChoice, .location: return nil
        }
    }

    /// True when the participant is offered an "I don't know" answer.
    public var showsDontKnow: Bool { dontKnow?.show == true }

    /// The values a participant can pick, for the choice-like formats.
    public var choiceValues: [ChoiceValue]? {
        switch self {
        case .boolean: return nil
        case .textChoice(let format): return format.choices.map(\.value)
        case .valuePicker(let format): return format.choices.map(\.value)
        case .multipleValuePicker(let format): return format.pickers.flatMap { $0.map(\.value) }
        case .imageChoice(let format): return format.choices.map(\.value)
        case .textScale(let format): return format.choices.map(\.value)
        default: return nil
        }
    }
}

/// `showDontKnowButton` and `customDontKnowButtonText`.
public struct DontKnowOption: Sendable, Hashable {
    public var show: Bool?
    public var buttonText: LocalizedText?

    public init(show: Bool? = nil, buttonText: LocalizedText? = nil) {
        self.show = show
        self.buttonText = buttonText
    }
}

/// Single or multiple choice.
public enum ChoiceStyle: String, Sendable, Hashable, CaseIterable {
    case singleChoice
    case multipleChoice
}

/// The free-text field of an "other" choice (ORKTextChoiceOther).
public struct OtherOption: Sendable, Hashable {
    public var placeholder: LocalizedText?
    /// When false, choosing "other" requires text. ResearchKit's default is true.
    public var optional: Bool?

    public init(placeholder: LocalizedText? = nil, optional: Bool? = nil) {
        self.placeholder = placeholder
        self.optional = optional
    }

    public var isOptional: Bool { optional ?? true }
}

/// One choice of a text choice, value picker or text scale (ORKTextChoice).
public struct TextChoice: Sendable, Hashable {
    public var text: LocalizedText
    public var detailText: LocalizedText?
    public var value: ChoiceValue
    public var exclusive: Bool?
    public var other: OtherOption?

    public init(text: LocalizedText, detailText: LocalizedText? = nil, value: ChoiceValue, exclusive: Bool? = nil, other: OtherOption? = nil) {
        self.text = text
        self.detailText = detailText
        self.value = value
        self.exclusive = exclusive
        self.other = other
    }

    public var isExclusive: Bool { exclusive ?? false }
}

public struct BooleanFormat: Sendable, Hashable {
    public var yes: LocalizedText?
    public var no: LocalizedText?
    public init(yes: LocalizedText? = nil, no: LocalizedText? = nil) {
        self.yes = yes
        self.no = no
    }
}

public struct TextChoiceFormat: Sendable, Hashable {
    public var style: ChoiceStyle
    public var choices: [TextChoice]
    public init(style: ChoiceStyle, choices: [TextChoice]) {
        self.style = style
        self.choices = choices
    }
}

public struct ValuePickerFormat: Sendable, Hashable {
    public var choices: [TextChoice]
    public init(choices: [TextChoice]) { self.choices = choices }
}

public struct MultipleValuePickerFormat: Sendable, Hashable {
    public var pickers: [[TextChoice]]
    public var separator: String?
    public init(pickers: [[TextChoice]], separator: String? = nil) {
        self.pickers = pickers
        self.separator = separator
    }
    /// ResearchKit's default separator is one space.
    public var effectiveSeparator: String { separator ?? " " }
}

public struct ImageChoice: Sendable, Hashable {
    public var image: String
    public var imageAlt: LocalizedText
    public var text: LocalizedText?
    public var value: ChoiceValue
    public init(image: String, imageAlt: LocalizedText, text: LocalizedText? = nil, value: ChoiceValue) {
        self.image = image
        self.imageAlt = imageAlt
        self.text = text
        self.value = value
    }
}

public struct ImageChoiceFormat: Sendable, Hashable {
    public var style: ChoiceStyle?
    public var choices: [ImageChoice]
    public init(style: ChoiceStyle? = nil, choices: [ImageChoice]) {
        self.style = style
        self.choices = choices
    }
    public var effectiveStyle: ChoiceStyle { style ?? .singleChoice }
}

/// A discrete slider (ORKScaleAnswerFormat); the web shows one radio per position.
public struct ScaleFormat: Sendable, Hashable {
    public var minimum: Int
    public var maximum: Int
    public var step: Int?
    public var defaultValue: Int?
    public var vertical: Bool?
    public var minimumValueDescription: LocalizedText?
    public var maximumValueDescription: LocalizedText?
    public var dontKnow: DontKnowOption

    public init(minimum: Int, maximum: Int, step: Int? = nil, defaultValue: Int? = nil, vertical: Bool? = nil,
                minimumValueDescription: LocalizedText? = nil, maximumValueDescription: LocalizedText? = nil,
                dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.minimumValueDescription = minimumValueDescription
        self.maximumValueDescription = maximumValueDescription
        self.dontKnow = dontKnow
    }

    public var effectiveStep: Int { step ?? 1 }

    /// Every value the scale offers, from minimum to maximum.
    public var values: [Int] {
        guard effectiveStep >= 1, maximum >= minimum else { return [] }
        return Array(stride(from: minimum, through: maximum, by: effectiveStep))
    }

    /// The default snapped to the scale as ResearchKit does; none when out of range.
    public var effectiveDefault: Int? {
        guard let defaultValue, defaultValue >= minimum, defaultValue <= maximum, effectiveStep >= 1 else { return nil }
        let steps = (Double(defaultValue - minimum) / Double(effectiveStep)).rounded()
        return minimum + Int(steps) * effectiveStep
    }
}

public enum NumberStyle: String, Sendable, Hashable, CaseIterable {
    case `default`
    case percent
}

public struct ContinuousScaleFormat: Sendable, Hashable {
    public var minimum: Double
    public var maximum: Double
    public var maximumFractionDigits: Int?
    public var defaultValue: Double?
    public var vertical: Bool?
    public var numberStyle: NumberStyle?
    public var minimumValueDescription: LocalizedText?
    public var maximumValueDescription: LocalizedText?
    public var dontKnow: DontKnowOption

    public init(minimum: Double, maximum: Double, maximumFractionDigits: Int? = nil, defaultValue: Double? = nil,
                vertical: Bool? = nil, numberStyle: NumberStyle? = nil, minimumValueDescription: LocalizedText? = nil,
                maximumValueDescription: LocalizedText? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.numberStyle = numberStyle
        self.minimumValueDescription = minimumValueDescription
        self.maximumValueDescription = maximumValueDescription
        self.dontKnow = dontKnow
    }

    public var fractionDigits: Int { maximumFractionDigits ?? 0 }
    public var isPercent: Bool { numberStyle == .percent }
}

public struct TextScaleFormat: Sendable, Hashable {
    public var choices: [TextChoice]
    public var defaultIndex: Int?
    public var vertical: Bool?
    public var dontKnow: DontKnowOption
    public init(choices: [TextChoice], defaultIndex: Int? = nil, vertical: Bool? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.choices = choices
        self.defaultIndex = defaultIndex
        self.vertical = vertical
        self.dontKnow = dontKnow
    }
}

public enum NumericStyle: String, Sendable, Hashable, CaseIterable {
    case integer
    case decimal
}

public struct NumericFormat: Sendable, Hashable {
    public var style: NumericStyle?
    public var unit: String?
    public var displayUnit: String?
    public var minimum: Double?
    public var maximum: Double?
    public var maximumFractionDigits: Int?
    public var defaultNumericAnswer: Double?
    public var dontKnow: DontKnowOption

    public init(style: NumericStyle? = nil, unit: String? = nil, displayUnit: String? = nil, minimum: Double? = nil,
                maximum: Double? = nil, maximumFractionDigits: Int? = nil, defaultNumericAnswer: Double? = nil,
                dontKnow: DontKnowOption = DontKnowOption()) {
        self.style = style
        self.unit = unit
        self.displayUnit = displayUnit
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultNumericAnswer = defaultNumericAnswer
        self.dontKnow = dontKnow
    }

    /// Decimal unless the author says integer, as `decimalAnswerFormatWithUnit:` is the common one.
    public var effectiveStyle: NumericStyle { style ?? .decimal }
    /// The unit shown beside the field: `displayUnit`, else `unit`.
    public var shownUnit: String? { displayUnit ?? unit }
}

public struct TimeOfDayFormat: Sendable, Hashable {
    public var defaultComponents: String?
    public var minuteInterval: Int?
    public var dontKnow: DontKnowOption
    public init(defaultComponents: String? = nil, minuteInterval: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.defaultComponents = defaultComponents
        self.minuteInterval = minuteInterval
        self.dontKnow = dontKnow
    }
    public var effectiveMinuteInterval: Int { minuteInterval ?? 1 }
}

public enum DateStyle: String, Sendable, Hashable, CaseIterable {
    case date
    case dateAndTime
}

public struct DateFormat: Sendable, Hashable {
    public var style: DateStyle?
    public var minimumDate: String?
    public var maximumDate: String?
    public var defaultDate: String?
    public var daysBeforeCurrentDate: Int?
    public var daysAfterCurrentDate: Int?
    public var minuteInterval: Int?
    public var dontKnow: DontKnowOption

    public init(style: DateStyle? = nil, minimumDate: String? = nil, maximumDate: String? = nil, defaultDate: String? = nil,
                daysBeforeCurrentDate: Int? = nil, daysAfterCurrentDate: Int? = nil, minuteInterval: Int? = nil,
                dontKnow: DontKnowOption = DontKnowOption()) {
        self.style = style
        self.minimumDate = minimumDate
        self.maximumDate = maximumDate
        self.defaultDate = defaultDate
        self.daysBeforeCurrentDate = daysBeforeCurrentDate
        self.daysAfterCurrentDate = daysAfterCurrentDate
        self.minuteInterval = minuteInterval
        self.dontKnow = dontKnow
    }

    /// `date` unless the author asks for a time too (`dateAnswerFormat` is ResearchKit's plain one).
    public var effectiveStyle: DateStyle { style ?? .date }
}

public struct TimeIntervalFormat: Sendable, Hashable {
    public var defaultInterval: Double?
    public var step: Int?
    public var dontKnow: DontKnowOption
    public init(defaultInterval: Double? = nil, step: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.defaultInterval = defaultInterval
        self.step = step
        self.dontKnow = dontKnow
    }
    public var effectiveStep: Int { step ?? 1 }
}

public struct TextFormat: Sendable, Hashable {
    public var maximumLength: Int?
    public var multipleLines: Bool?
    public var validationRegularExpression: String?
    public var invalidMessage: LocalizedText?
    public var defaultTextAnswer: String?
    public var dontKnow: DontKnowOption

    public init(maximumLength: Int? = nil, multipleLines: Bool? = nil, validationRegularExpression: String? = nil,
                invalidMessage: LocalizedText? = nil, defaultTextAnswer: String? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.maximumLength = maximumLength
        self.multipleLines = multipleLines
        self.validationRegularExpression = validationRegularExpression
        self.invalidMessage = invalidMessage
        self.defaultTextAnswer = defaultTextAnswer
        self.dontKnow = dontKnow
    }

    /// Zero means no limit, as in ResearchKit.
    public var lengthLimit: Int? {
        guard let maximumLength, maximumLength > 0 else { return nil }
        return maximumLength
    }
}

public struct EmailFormat: Sendable, Hashable {
    public var dontKnow: DontKnowOption
    public init(dontKnow: DontKnowOption = DontKnowOption()) { self.dontKnow = dontKnow }
}

public enum MeasurementSystem: String, Sendable, Hashable, CaseIterable {
    case local
    case metric
    case USC
}

public struct HeightFormat: Sendable, Hashable {
    public var measurementSystem: MeasurementSystem?
    public var dontKnow: DontKnowOption
    public init(measurementSystem: MeasurementSystem? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.measurementSystem = measurementSystem
        self.dontKnow = dontKnow
    }
}

public enum NumericPrecision: String, Sendable, Hashable, CaseIterable {
    case `default`
    case low
    case high
}

public struct WeightFormat: Sendable, Hashable {
    public var measurementSystem: MeasurementSystem?
    public var numericPrecision: NumericPrecision?
    public var minimumValue: Double?
    public var maximumValue: Double?
    public var defaultValue: Double?
    public var dontKnow: DontKnowOption

    public init(measurementSystem: MeasurementSystem? = nil, numericPrecision: NumericPrecision? = nil, minimumValue: Double? = nil,
                maximumValue: Double? = nil, defaultValue: Double? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.measurementSystem = measurementSystem
        self.numericPrecision = numericPrecision
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
}

public struct AgeFormat: Sendable, Hashable {
    public var minimumAge: Int?
    public var maximumAge: Int?
    public var minimumAgeCustomText: LocalizedText?
    public var maximumAgeCustomText: LocalizedText?
    public var showYear: Bool?
    public var useYearForResult: Bool?
    public var treatMinAgeAsRange: Bool?
    public var treatMaxAgeAsRange: Bool?
    public var relativeYear: Int?
    public var defaultValue: Int?
    public var dontKnow: DontKnowOption

    public init(minimumAge: Int? = nil, maximumAge: Int? = nil, minimumAgeCustomText: LocalizedText? = nil,
                maximumAgeCustomText: LocalizedText? = nil, showYear: Bool? = nil, useYearForResult: Bool? = nil,
                treatMinAgeAsRange: Bool? = nil, treatMaxAgeAsRange: Bool? = nil, relativeYear: Int? = nil,
                defaultValue: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimumAge = minimumAge
        self.maximumAge = maximumAge
        self.minimumAgeCustomText = minimumAgeCustomText
        self.maximumAgeCustomText = maximumAgeCustomText
        self.showYear = showYear
        self.useYearForResult = useYearForResult
        self.treatMinAgeAsRange = treatMinAgeAsRange
        self.treatMaxAgeAsRange = treatMaxAgeAsRange
        self.relativeYear = relativeYear
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }

    /// ResearchKit's plain `init` asks for an age from 1 to 125; the author may set 0 to 150.
    public var effectiveMinimum: Int { minimumAge ?? 1 }
    public var effectiveMaximum: Int { maximumAge ?? 125 }
    /// Recorded when the participant picks "younger than the minimum" (`treatMinAgeAsRange`).
    public static let minimumSentinel = -1
    /// Recorded when the participant picks "older than the maximum" (`treatMaxAgeAsRange`).
    public static let maximumSentinel = -2
}

public struct LocationFormat: Sendable, Hashable {
    public init() {}
}

public struct SESFormat: Sendable, Hashable {
    public var topRungText: LocalizedText?
    public var bottomRungText: LocalizedText?
    public var dontKnow: DontKnowOption
    public init(topRungText: LocalizedText? = nil, bottomRungText: LocalizedText? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.topRungText = topRungText
        self.bottomRungText = bottomRungText
        self.dontKnow = dontKnow
    }
    public static let rungCount = 10
}
