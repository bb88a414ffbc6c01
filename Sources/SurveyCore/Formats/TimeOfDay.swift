import Foundation
import JSON

/// A time of day (ORKTimeOfDayAnswerFormat), typed as people write it, on an optional
/// minute interval.
public struct TimeOfDayFormat: Sendable, Hashable, AnswerFormatRules {
    public var defaultComponents: String?
    public var minuteInterval: Int?
    public var dontKnow: DontKnowOption
    public init(defaultComponents: String? = nil, minuteInterval: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.defaultComponents = defaultComponents
        self.minuteInterval = minuteInterval
        self.dontKnow = dontKnow
    }
    public var effectiveMinuteInterval: Int { minuteInterval ?? 1 }

    static let typeName = "timeOfDay"
    static let resultType = QuestionResultType.timeOfDay

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .timeOfDay(TimeOfDayFormat(defaultComponents: reader.string("defaultComponents"), minuteInterval: reader.integer("minuteInterval"),
                                   dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["defaultComponents"] = JSONKeys.string(defaultComponents)
        object["minuteInterval"] = JSONKeys.integer(minuteInterval)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if let text = defaultComponents, TimeOfDay(text) == nil {
            checks.error(path / "defaultComponents", "\"defaultComponents\" must be a time as \"HH:mm\", such as \"08:30\", not \"\(text)\".")
        }
        if checks.minuteInterval(minuteInterval, at: path / "minuteInterval"),
           let text = defaultComponents, let time = TimeOfDay(text), time.minute % effectiveMinuteInterval != 0 {
            checks.warning(path / "defaultComponents", "The default \(text) is not on the \(effectiveMinuteInterval)-minute interval.")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let time = TimeParsing.parse(raw) else { return AnswerIssue.one(name, .invalidDate, .enterTime) }
        if time.minute % effectiveMinuteInterval != 0 {
            return AnswerIssue.one(name, .notOnInterval, .timeOnInterval(minutes: effectiveMinuteInterval))
        }
        return .answer(.timeOfDay(time))
    }

    func defaultFields(name: String) -> [(String, String)] { defaultComponents.map { [(name, $0)] } ?? [] }
    var missingAnswer: AnswerIssue.MissingAnswer { .time }
    var dontKnowOption: DontKnowOption? { dontKnow }
}
