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

/// Reads a time of day as people type it: "9:30", "09.30", "0930", "9:30pm", "9pm", "21h30",
/// in ASCII or Arabic digits ("٩:٣٠").
public enum TimeParsing {
    public static func parse(_ raw: String) -> TimeOfDay? {
        var text = LocaleDigits.ascii(raw).lowercased().replacingOccurrences(of: " ", with: "")
        var meridiem: String?
        for suffix in ["a.m.", "p.m.", "a.m", "p.m", "am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix.hasPrefix("a") ? "am" : "pm"
            text = String(text.dropLast(suffix.count))
            break
        }
        var hourText = text
        var minuteText = "00"
        if let separator = text.firstIndex(where: { $0 == ":" || $0 == "." || $0 == "h" }) {
            hourText = String(text[..<separator])
            minuteText = String(text[text.index(after: separator)...])
            if minuteText.isEmpty { minuteText = "00" }
        } else if text.count == 4 || (text.count == 3 && meridiem != nil) {
            hourText = String(text.dropLast(2))
            minuteText = String(text.suffix(2))
        }
        guard (1...2).contains(hourText.count), minuteText.count == 2,
              hourText.allSatisfy(\.isASCIIDigit), minuteText.allSatisfy(\.isASCIIDigit),
              var hour = Int(hourText), let minute = Int(minuteText) else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            if meridiem == "am", hour == 12 { hour = 0 }
            if meridiem == "pm", hour != 12 { hour += 12 }
        }
        return TimeOfDay(hour: hour, minute: minute)
    }
}
