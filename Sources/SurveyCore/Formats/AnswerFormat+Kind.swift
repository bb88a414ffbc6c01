import Foundation
import JSON

extension AnswerFormat {
    /// Which format this is, without its options.
    public var kind: Kind {
        switch self {
        case .boolean: return .boolean
        case .textChoice: return .textChoice
        case .valuePicker: return .valuePicker
        case .multipleValuePicker: return .multipleValuePicker
        case .imageChoice: return .imageChoice
        case .scale: return .scale
        case .continuousScale: return .continuousScale
        case .textScale: return .textScale
        case .numeric: return .numeric
        case .timeOfDay: return .timeOfDay
        case .date: return .date
        case .timeInterval: return .timeInterval
        case .text: return .text
        case .email: return .email
        case .height: return .height
        case .weight: return .weight
        case .age: return .age
        case .location: return .location
        case .ses: return .ses
        }
    }

    /// The formats by name alone, in the spec's order: what code that sees only a format's
    /// `type` (the FHIR export reads the survey file's JSON) switches over. `AnswerFormat.kind`
    /// names every case, so a new format is not done until it has a kind here, and then every
    /// switch over kinds names it too.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case boolean, textChoice, valuePicker, multipleValuePicker, imageChoice, scale, continuousScale, textScale, numeric
        case timeOfDay, date, timeInterval, text, email, height, weight, age, location, ses

        /// The kind whose `type` name in the survey file is `typeName`, if one is.
        public init?(typeName: String) {
            guard let kind = Self.allCases.first(where: { $0.typeName == typeName }) else { return nil }
            self = kind
        }

        /// The `type` name in the survey file, as the format's own file gives it.
        public var typeName: String { rules.typeName }

        /// The format's file.
        var rules: any AnswerFormatRules.Type {
            switch self {
            case .boolean: return BooleanFormat.self
            case .textChoice: return TextChoiceFormat.self
            case .valuePicker: return ValuePickerFormat.self
            case .multipleValuePicker: return MultipleValuePickerFormat.self
            case .imageChoice: return ImageChoiceFormat.self
            case .scale: return ScaleFormat.self
            case .continuousScale: return ContinuousScaleFormat.self
            case .textScale: return TextScaleFormat.self
            case .numeric: return NumericFormat.self
            case .timeOfDay: return TimeOfDayFormat.self
            case .date: return DateFormat.self
            case .timeInterval: return TimeIntervalFormat.self
            case .text: return TextFormat.self
            case .email: return EmailFormat.self
            case .height: return HeightFormat.self
            case .weight: return WeightFormat.self
            case .age: return AgeFormat.self
            case .location: return LocationFormat.self
            case .ses: return SESFormat.self
            }
        }
    }
}
