import Foundation
import JSON

/// A date, or a date and time (ORKDateAnswerFormat), typed in GOV.UK's three boxes
/// (`{item}.day`, `.month`, `.year`, and `.time`) or one native field (`{item}` as
/// "YYYY-MM-DD" or "YYYY-MM-DDTHH:mm"), within fixed bounds or days around today.
public struct DateFormat: Sendable, Hashable, AnswerFormatRules {
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

    static let typeName = "date"
    static let resultType = QuestionResultType.date

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .date(DateFormat(
            style: reader.enumeration("style", DateStyle.self), minimumDate: reader.string("minimumDate"), maximumDate: reader.string("maximumDate"),
            defaultDate: reader.string("defaultDate"), daysBeforeCurrentDate: reader.integer("daysBeforeCurrentDate"),
            daysAfterCurrentDate: reader.integer("daysAfterCurrentDate"), minuteInterval: reader.integer("minuteInterval"),
            dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["style"] = JSONKeys.name(style)
        object["minimumDate"] = JSONKeys.string(minimumDate)
        object["maximumDate"] = JSONKeys.string(maximumDate)
        object["defaultDate"] = JSONKeys.string(defaultDate)
        object["daysBeforeCurrentDate"] = JSONKeys.integer(daysBeforeCurrentDate)
        object["daysAfterCurrentDate"] = JSONKeys.integer(daysAfterCurrentDate)
        object["minuteInterval"] = JSONKeys.integer(minuteInterval)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        var instants: [String: Date] = [:]
        for (key, text) in [("minimumDate", minimumDate), ("defaultDate", defaultDate), ("maximumDate", maximumDate)] {
            guard let text else { continue }
            if effectiveStyle == .date, CalendarDate(text) == nil, DateTimeParsing.instant(text, defaultZone: checks.timeZone) == nil {
                checks.error(path / key, "\"\(key)\" must be a date as \"YYYY-MM-DD\", not \"\(text)\".")
            } else if let instant = DateTimeParsing.instant(text, defaultZone: checks.timeZone) {
                instants[key] = instant
            } else {
                checks.error(path / key, "\"\(key)\" must be an ISO 8601 date-time such as \"2026-11-21T10:00:00+01:00\", not \"\(text)\".")
            }
        }
        if let minimum = instants["minimumDate"], let maximum = instants["maximumDate"], minimum > maximum {
            checks.error(path / "maximumDate", "\"maximumDate\" must not be before \"minimumDate\".")
        }
        if let value = instants["defaultDate"] {
            if let minimum = instants["minimumDate"], value < minimum {
                checks.error(path / "defaultDate", "\"defaultDate\" must not be before \"minimumDate\".")
            }
            if let maximum = instants["maximumDate"], value > maximum {
                checks.error(path / "defaultDate", "\"defaultDate\" must not be after \"maximumDate\".")
            }
        }
        if let days = daysBeforeCurrentDate {
            if days < 0 { checks.error(path / "daysBeforeCurrentDate", "\"daysBeforeCurrentDate\" must be 0 or more; it is \(days).") }
            if minimumDate != nil {
                checks.error(path / "daysBeforeCurrentDate", "Give either \"minimumDate\" or \"daysBeforeCurrentDate\", not both.")
            }
        }
        if let days = daysAfterCurrentDate {
            if days < 0 { checks.error(path / "daysAfterCurrentDate", "\"daysAfterCurrentDate\" must be 0 or more; it is \(days).") }
            if maximumDate != nil {
                checks.error(path / "daysAfterCurrentDate", "Give either \"maximumDate\" or \"daysAfterCurrentDate\", not both.")
            }
        }
        checks.minuteInterval(minuteInterval, at: path / "minuteInterval")
        if minuteInterval != nil, effectiveStyle == .date {
            checks.warning(path / "minuteInterval", "\"minuteInterval\" only matters for the \"dateAndTime\" style.")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        // Digits in any script a participant's keyboard types them in ("١٥ / ٣ / ٢٠٢٦").
        let dayText = fields.trimmed(name + ".day").map(LocaleDigits.ascii)
        let monthText = fields.trimmed(name + ".month").map(LocaleDigits.ascii)
        let yearText = fields.trimmed(name + ".year").map(LocaleDigits.ascii)
        var timeText = fields.trimmed(name + ".time")
        let date: CalendarDate
        if dayText == nil, monthText == nil, yearText == nil {
            guard let native = fields.trimmed(name).map(LocaleDigits.ascii) else {
                return timeText != nil ? AnswerIssue.one(name + ".day", .incomplete, .enterDate) : .empty
            }
            guard let parsed = CalendarDate(String(native.prefix(10))) else { return AnswerIssue.one(name, .invalidDate, .realDate) }
            date = parsed
            if native.count > 10 { timeText = String(native.dropFirst(11)) }
        } else {
            let parts: [(AnswerIssue.DatePart, String?)] = [(.day, dayText), (.month, monthText), (.year, yearText)]
            if let missing = parts.first(where: { $0.1 == nil }) {
                return AnswerIssue.one("\(name).\(missing.0.rawValue)", .incomplete, .datePartMissing(missing.0))
            }
            guard let month = Self.monthNumber(monthText!), (1...12).contains(month) else {
                return AnswerIssue.one(name + ".month", .invalidDate, .realDate)
            }
            let yearDigits = yearText!.drop { $0 == "+" || $0 == "-" }
            guard yearDigits.allSatisfy(\.isASCIIDigit), let year = Int(yearDigits) else {
                return AnswerIssue.one(name + ".year", .invalidDate, .realDate)
            }
            guard yearText!.count == 4, yearDigits.count == 4, year >= 1 else {
                return AnswerIssue.one(name + ".year", .invalidDate, .yearFourDigits)
            }
            guard dayText!.allSatisfy(\.isASCIIDigit), let day = Int(dayText!), let parsed = CalendarDate(year: year, month: month, day: day) else {
                return AnswerIssue.one(name + ".day", .invalidDate, .realDate)
            }
            date = parsed
        }
        let bounds = bounds(context: context)
        switch effectiveStyle {
        case .date:
            let earliest = bounds.minimum.map { CalendarDate($0, in: context.timeZone) }
            let latest = bounds.maximum.map { CalendarDate($0, in: context.timeZone) }
            if earliest.map({ date < $0 }) == true || latest.map({ date > $0 }) == true {
                return AnswerIssue.one(name + ".day", .dateOutOfRange, .dateBetween(earliest: earliest, latest: latest))
            }
            return .answer(.date(.day(date)))
        case .dateAndTime:
            guard let timeText else { return AnswerIssue.one(name + ".time", .incomplete, .enterTime) }
            guard let time = TimeParsing.parse(timeText) else { return AnswerIssue.one(name + ".time", .invalidDate, .enterTime) }
            if let interval = minuteInterval, time.minute % interval != 0 {
                return AnswerIssue.one(name + ".time", .notOnInterval, .timeOnInterval(minutes: interval))
            }
            guard let instant = DateTimeParsing.instant(date, time, second: 0, zone: context.timeZone) else {
                return AnswerIssue.one(name + ".day", .invalidDate, .realDate)
            }
            if let earliest = bounds.minimum, instant < earliest {
                return AnswerIssue.one(name + ".day", .dateOutOfRange, .momentNotBefore(earliest, context.timeZone))
            }
            if let latest = bounds.maximum, instant > latest {
                return AnswerIssue.one(name + ".day", .dateOutOfRange, .momentNotAfter(latest, context.timeZone))
            }
            return .answer(.date(.instant(instant)))
        }
    }

    /// The earliest and latest allowed instants, from fixed dates or days around today.
    public func bounds(context: AnswerContext) -> (minimum: Date?, maximum: Date?) {
        let today = CalendarDate(context.now, in: context.timeZone)
        var minimum = minimumDate.flatMap { DateTimeParsing.instant($0, defaultZone: context.timeZone) }
        var maximum = maximumDate.flatMap { text -> Date? in
            // A plain day as a maximum allows the whole of that day.
            if let day = CalendarDate(text), effectiveStyle == .dateAndTime {
                return Self.lastMoment(of: day, in: context.timeZone)
            }
            return DateTimeParsing.instant(text, defaultZone: context.timeZone)
        }
        if let days = daysBeforeCurrentDate, let first = today.adding(days: -days) {
            minimum = DateTimeParsing.instant(first.description, defaultZone: context.timeZone)
        }
        if let days = daysAfterCurrentDate, let last = today.adding(days: days) {
            maximum = Self.lastMoment(of: last, in: context.timeZone)
        }
        return (minimum, maximum)
    }

    /// The last second of a day in a zone: a second before the next day starts, since a day on
    /// which clocks change is 23 or 25 hours long.
    public static func lastMoment(of day: CalendarDate, in zone: TimeZone) -> Date? {
        day.adding(days: 1).flatMap { DateTimeParsing.instant($0.description, defaultZone: zone) }?.addingTimeInterval(-1)
    }

    /// The English month names a participant may type instead of a number.
    static let typedMonthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                  "october", "november", "december"]

    /// A month as a number or a name ("3", "03", "mar", "March").
    static func monthNumber(_ text: String) -> Int? {
        if let number = Int(text) { return number }
        let lowered = text.lowercased()
        guard lowered.count >= 3 else { return nil }
        return typedMonthNames.firstIndex { $0.hasPrefix(lowered) }.map { $0 + 1 }
    }

    /// A date answer as the three boxes, with the time box for an instant.
    static func dateFields(_ date: DateAnswer, name: String, context: AnswerContext) -> [(String, String)] {
        let day: CalendarDate
        var time: String?
        switch date {
        case .day(let value): day = value
        case .instant(let instant):
            day = CalendarDate(instant, in: context.timeZone)
            time = TimeOfDay(instant, in: context.timeZone).description
        }
        var fields = [(name + ".day", String(day.day)), (name + ".month", String(day.month)), (name + ".year", String(day.year))]
        if let time { fields.append((name + ".time", time)) }
        return fields
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .date }
    func firstField(name: String, context: AnswerContext) -> String { name + ".day" }
    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) { result.timeZone = timeZone.identifier }
    var dontKnowOption: DontKnowOption? { dontKnow }
}
