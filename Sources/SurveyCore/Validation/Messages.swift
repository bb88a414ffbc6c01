import Foundation

/// The English wording of participant messages, in the GOV.UK manner: say what to do.
public enum Messages {
    static let selectAnOption = "Select one of the options"
    static let conflictingValues = "We received two different answers here; choose one and continue"
    static let enterTime = "Enter a time, like 14:30"
    static let email = "Enter an email address in the correct format, like name@example.com"

    static func timeInterval(_ minutes: Int) -> String {
        "Enter a time in steps of \(minutes) minutes, like 14:\(pad(minutes * (minutes >= 30 ? 1 : 2) % 60, 2))"
    }

    static func number(_ value: Double) -> String { JSONWriter.number(value) }

    static func enterNumber(between low: Double, and high: Double, unit: String) -> String {
        "Enter a number between \(number(low)) and \(number(high))\(unit)"
    }

    static func fractionDigits(_ digits: Int) -> String {
        digits == 0 ? "Enter a whole number, like 12" : "Enter a number with no more than \(digits) decimal place\(digits == 1 ? "" : "s")"
    }

    static func localizeDecimal(_ message: String, _ context: AnswerContext) -> String {
        NumberParsing.usesDecimalComma(context.language) ? message.replacingOccurrences(of: "3.5", with: "3,5") : message
    }

    /// Author text without its markup, for quoting a choice in a message.
    static func plain(_ text: LocalizedText, _ context: AnswerContext) -> String {
        text.resolved(for: context.language).replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// "10 March 2026 at 09:00".
    public static func moment(_ instant: Date, _ zone: TimeZone) -> String {
        DateAnswerParsing.moment(instant, zone)
    }

    /// "1 January 2026".
    public static func day(_ date: CalendarDate) -> String {
        "\(date.day) \(monthNames[date.month - 1]) \(date.year)"
    }
}

/// Reads a time of day as people type it: "9:30", "09.30", "0930", "9:30pm", "9pm", "21h30".
public enum TimeParsing {
    public static func parse(_ raw: String) -> TimeOfDay? {
        var text = raw.lowercased().replacingOccurrences(of: " ", with: "")
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

/// Dates as GOV.UK's three fields (`{item}.day`, `.month`, `.year`) or one native field
/// (`{item}` as "YYYY-MM-DD", or "YYYY-MM-DDTHH:mm"), with a time in `{item}.time`.
enum DateAnswerParsing {
    static func parse(_ format: DateFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        let dayText = fields.trimmed(name + ".day")
        let monthText = fields.trimmed(name + ".month")
        let yearText = fields.trimmed(name + ".year")
        var timeText = fields.trimmed(name + ".time")
        var date: CalendarDate?
        if dayText == nil, monthText == nil, yearText == nil {
            guard let native = fields.trimmed(name) else {
                if timeText != nil {
                    return .invalid([AnswerIssue(field: name + ".day", code: .incomplete, message: "Enter a date")])
                }
                return .empty
            }
            let datePart = String(native.prefix(10))
            guard let parsed = CalendarDate(datePart) else {
                return .invalid([AnswerIssue(field: name, code: .invalidDate, message: "Enter a real date, like 27 3 2007")])
            }
            date = parsed
            if native.count > 10 { timeText = String(native.dropFirst(11)) }
        } else {
            let parts = [("day", dayText), ("month", monthText), ("year", yearText)]
            if let missing = parts.first(where: { $0.1 == nil }) {
                return .invalid([AnswerIssue(field: "\(name).\(missing.0)", code: .incomplete, message: "The date must include a \(missing.0)")])
            }
            let real = "Enter a real date, like 27 3 2007"
            guard let month = monthNumber(monthText!), (1...12).contains(month) else {
                return .invalid([AnswerIssue(field: name + ".month", code: .invalidDate, message: real)])
            }
            let yearDigits = yearText!.drop { $0 == "+" || $0 == "-" }
            guard yearDigits.allSatisfy(\.isASCIIDigit), let year = Int(yearDigits) else {
                return .invalid([AnswerIssue(field: name + ".year", code: .invalidDate, message: real)])
            }
            guard yearText!.count == 4, yearDigits.count == 4, year >= 1 else {
                return .invalid([AnswerIssue(field: name + ".year", code: .invalidDate, message: "Year must include 4 numbers")])
            }
            guard dayText!.allSatisfy(\.isASCIIDigit), let day = Int(dayText!), let parsed = CalendarDate(year: year, month: month, day: day) else {
                return .invalid([AnswerIssue(field: name + ".day", code: .invalidDate, message: real)])
            }
            date = parsed
        }
        guard let date else { return .empty }
        let bounds = Self.bounds(format, context: context)
        switch format.effectiveStyle {
        case .date:
            let earliest = bounds.minimum.map { CalendarDate($0, in: context.timeZone) }
            let latest = bounds.maximum.map { CalendarDate($0, in: context.timeZone) }
            if earliest.map({ date < $0 }) == true || latest.map({ date > $0 }) == true {
                return .invalid([AnswerIssue(field: name + ".day", code: .dateOutOfRange, message: rangeMessage(earliest, latest))])
            }
            return .answer(.date(.day(date)))
        case .dateAndTime:
            guard let timeText else {
                return .invalid([AnswerIssue(field: name + ".time", code: .incomplete, message: "Enter a time, like 14:30")])
            }
            guard let time = TimeParsing.parse(timeText) else {
                return .invalid([AnswerIssue(field: name + ".time", code: .invalidDate, message: "Enter a time, like 14:30")])
            }
            if let interval = format.minuteInterval, time.minute % interval != 0 {
                return .invalid([AnswerIssue(field: name + ".time", code: .notOnInterval, message: Messages.timeInterval(interval))])
            }
            guard let instant = DateTimeParsing.instant(date, time, second: 0, zone: context.timeZone) else {
                return .invalid([AnswerIssue(field: name + ".day", code: .invalidDate, message: "Enter a real date, like 27 3 2007")])
            }
            if let earliest = bounds.minimum, instant < earliest {
                return .invalid([AnswerIssue(field: name + ".day", code: .dateOutOfRange,
                                             message: "The date and time must be \(moment(earliest, context.timeZone)) or later")])
            }
            if let latest = bounds.maximum, instant > latest {
                return .invalid([AnswerIssue(field: name + ".day", code: .dateOutOfRange,
                                             message: "The date and time must be \(moment(latest, context.timeZone)) or earlier")])
            }
            return .answer(.date(.instant(instant)))
        }
    }

    /// The earliest and latest allowed instants, from fixed dates or days around today.
    static func bounds(_ format: DateFormat, context: AnswerContext) -> (minimum: Date?, maximum: Date?) {
        let today = CalendarDate(context.now, in: context.timeZone)
        var minimum = format.minimumDate.flatMap { DateTimeParsing.instant($0, defaultZone: context.timeZone) }
        var maximum = format.maximumDate.flatMap { text -> Date? in
            // A plain day as a maximum allows the whole of that day.
            if let day = CalendarDate(text), format.effectiveStyle == .dateAndTime {
                return lastMoment(of: day, in: context.timeZone)
            }
            return DateTimeParsing.instant(text, defaultZone: context.timeZone)
        }
        if let days = format.daysBeforeCurrentDate, let first = today.adding(days: -days) {
            minimum = DateTimeParsing.instant(first.description, defaultZone: context.timeZone)
        }
        if let days = format.daysAfterCurrentDate, let last = today.adding(days: days) {
            maximum = lastMoment(of: last, in: context.timeZone)
        }
        return (minimum, maximum)
    }

    /// The last second of a day in a zone: a second before the next day starts, since a day on
    /// which clocks change is 23 or 25 hours long.
    static func lastMoment(of day: CalendarDate, in zone: TimeZone) -> Date? {
        day.adding(days: 1).flatMap { DateTimeParsing.instant($0.description, defaultZone: zone) }?.addingTimeInterval(-1)
    }

    static func moment(_ instant: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let time = TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0)?.description ?? "00:00"
        return "\(Messages.day(CalendarDate(instant, in: zone))) at \(time)"
    }

    static func rangeMessage(_ earliest: CalendarDate?, _ latest: CalendarDate?) -> String {
        switch (earliest, latest) {
        case (let low?, let high?) where low == high: return "The date must be \(Messages.day(low))"
        case (let low?, let high?): return "The date must be between \(Messages.day(low)) and \(Messages.day(high))"
        case (let low?, nil): return "The date must be the same as or after \(Messages.day(low))"
        case (nil, let high?): return "The date must be the same as or before \(Messages.day(high))"
        default: return "Enter a real date"
        }
    }

    /// A month as a number or a name ("3", "03", "mar", "March").
    static func monthNumber(_ text: String) -> Int? {
        if let number = Int(text) { return number }
        let lowered = text.lowercased()
        guard lowered.count >= 3 else { return nil }
        return Messages.monthNames.firstIndex { $0.lowercased().hasPrefix(lowered) }.map { $0 + 1 }
    }
}

/// Height and weight, in metric or US customary fields, recorded in cm and kg.
enum MeasurementParsing {
    static let centimetresPerInch = 2.54
    static let kilogramsPerPound = 0.453_592_37

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    static func height(_ format: HeightFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        switch context.resolve(format.measurementSystem) {
        case .USC:
            let feetText = fields.trimmed(name + ".feet")
            let inchesText = fields.trimmed(name + ".inches")
            if feetText == nil, inchesText == nil { return .empty }
            let feet = feetText.map { NumberParsing.parse($0, language: context.language) } ?? TypedNumber(value: 0, fractionDigits: 0)
            let inches = inchesText.map { NumberParsing.parse($0, language: context.language) } ?? TypedNumber(value: 0, fractionDigits: 0)
            var issues: [AnswerIssue] = []
            if feet == nil || feet!.fractionDigits > 0 || !(0...9).contains(feet!.value) {
                issues.append(AnswerIssue(field: name + ".feet", code: .outOfRange, message: "Enter feet as a whole number from 0 to 9"))
            }
            if inches == nil || !(0..<12).contains(inches!.value) || inches!.fractionDigits > 1 {
                issues.append(AnswerIssue(field: name + ".inches", code: .outOfRange, message: "Enter inches from 0 to 11"))
            }
            if !issues.isEmpty { return .invalid(issues) }
            let total = (feet!.value * 12 + inches!.value) * centimetresPerInch
            guard total > 0 else {
                return .invalid([AnswerIssue(field: name + ".feet", code: .outOfRange, message: "Enter a height greater than 0")])
            }
            return .answer(.numeric(rounded(total)))
        case .metric, .local:
            guard let raw = fields.trimmed(name) else { return .empty }
            guard let number = NumberParsing.parse(raw, language: context.language) else {
                return .invalid([AnswerIssue(field: name, code: .notANumber, message: "Enter a height in centimetres, like 170")])
            }
            guard number.value >= 1, number.value <= 300 else {
                return .invalid([AnswerIssue(field: name, code: .outOfRange, message: "Enter a height between 1 and 300 cm")])
            }
            if number.fractionDigits > 1 {
                return .invalid([AnswerIssue(field: name, code: .tooManyFractionDigits, message: Messages.fractionDigits(1))])
            }
            return .answer(.numeric(rounded(number.value)))
        }
    }

    /// Fraction digits allowed for each precision: whole units, one decimal, two decimals.
    static func digits(_ precision: NumericPrecision?) -> Int {
        switch precision ?? .default {
        case .low: return 0
        case .default: return 1
        case .high: return 2
        }
    }

    static func weight(_ format: WeightFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        let system = context.resolve(format.measurementSystem)
        let unit = system == .USC ? "lb" : "kg"
        let low = format.minimumValue ?? 0
        let high = format.maximumValue ?? (system == .USC ? 1450 : 657)
        let rangeMessage = "Enter a weight between \(Messages.number(low)) and \(Messages.number(high)) \(unit)"
        var amount: Double
        if system == .USC, format.numericPrecision == .high {
            let poundsText = fields.trimmed(name + ".pounds")
            let ouncesText = fields.trimmed(name + ".ounces")
            if poundsText == nil, ouncesText == nil { return .empty }
            let pounds = poundsText.map { NumberParsing.parse($0, language: context.language) } ?? TypedNumber(value: 0, fractionDigits: 0)
            let ounces = ouncesText.map { NumberParsing.parse($0, language: context.language) } ?? TypedNumber(value: 0, fractionDigits: 0)
            var issues: [AnswerIssue] = []
            if pounds == nil || pounds!.fractionDigits > 0 || pounds!.value < 0 {
                issues.append(AnswerIssue(field: name + ".pounds", code: .notAWholeNumber, message: "Enter pounds as a whole number"))
            }
            if ounces == nil || ounces!.fractionDigits > 0 || !(0..<16).contains(ounces!.value) {
                issues.append(AnswerIssue(field: name + ".ounces", code: .outOfRange, message: "Enter ounces from 0 to 15"))
            }
            if !issues.isEmpty { return .invalid(issues) }
            amount = pounds!.value + ounces!.value / 16
            if amount < low || amount > high {
                return .invalid([AnswerIssue(field: name + ".pounds", code: .outOfRange, message: rangeMessage)])
            }
        } else {
            guard let raw = fields.trimmed(name) else { return .empty }
            guard let number = NumberParsing.parse(raw, language: context.language) else {
                return .invalid([AnswerIssue(field: name, code: .notANumber, message: "Enter a weight in \(system == .USC ? "pounds" : "kilograms"), like 70")])
            }
            let allowed = digits(format.numericPrecision)
            if number.fractionDigits > allowed {
                return .invalid([AnswerIssue(field: name, code: .tooManyFractionDigits, message: Messages.fractionDigits(allowed))])
            }
            if number.value < low || number.value > high {
                return .invalid([AnswerIssue(field: name, code: .outOfRange, message: rangeMessage)])
            }
            amount = number.value
        }
        return .answer(.numeric(rounded(system == .USC ? amount * kilogramsPerPound : amount)))
    }
}
