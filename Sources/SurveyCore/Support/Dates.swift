import Foundation
import JSON

/// A time of day as hours and minutes, written "HH:mm".
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Reads the strict file form "HH:mm" (also "H:mm").
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var minutesOfDay: Int { hour * 60 + minute }

    public var description: String { pad(hour, 2) + ":" + pad(minute, 2) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutesOfDay < rhs.minutesOfDay }
}

/// A day of the Gregorian calendar with no time or zone, written "YYYY-MM-DD".
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads "YYYY-MM-DD" exactly.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var description: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    /// Days since 1970-01-01 (proleptic Gregorian), for arithmetic and comparison.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init?(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    public func adding(days: Int) -> CalendarDate? {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// The day an instant falls on in a time zone.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        self = CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? CalendarDate(year: 1970, month: 1, day: 1)!
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.dayNumber < rhs.dayNumber }
}

/// Reads and writes ISO 8601 date-times with offsets.
public enum DateTimeParsing {
    /// An instant from "YYYY-MM-DD" (midnight in `defaultZone`) or
    /// "YYYY-MM-DDTHH:mm[:ss[.fff]]" with an optional "Z" or "±HH:mm" offset (else `defaultZone`).
    public static func instant(_ text: String, defaultZone: TimeZone) -> Date? {
        if let date = CalendarDate(text) {
            return instant(date, TimeOfDay(hour: 0, minute: 0)!, second: 0, zone: defaultZone)
        }
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }),
              let date = CalendarDate(String(text[..<separator])) else { return nil }
        var rest = Substring(text[text.index(after: separator)...])
        var zone = defaultZone
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            zone = TimeZone(secondsFromGMT: 0)!
            rest = rest.dropLast()
        } else if let signIndex = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offsetText = rest[rest.index(after: signIndex)...].replacingOccurrences(of: ":", with: "")
            guard offsetText.count == 4, offsetText.allSatisfy(\.isASCIIDigit), let hours = Int(offsetText.prefix(2)),
                  let minutes = Int(offsetText.suffix(2)), hours <= 23, minutes <= 59 else { return nil }
            let sign = rest[signIndex] == "-" ? -1 : 1
            guard let offsetZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
            zone = offsetZone
            rest = rest[..<signIndex]
        }
        let timeParts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(timeParts.count), timeParts[0].count == 2, timeParts[1].count == 2,
              let hour = Int(timeParts[0]), let minute = Int(timeParts[1]), let time = TimeOfDay(hour: hour, minute: minute) else { return nil }
        var seconds = 0.0
        if timeParts.count == 3 {
            guard timeParts[2].count >= 2, let value = Double(timeParts[2]), value >= 0, value < 61,
                  timeParts[2].prefix(2).allSatisfy(\.isASCIIDigit) else { return nil }
            seconds = value
        }
        return instant(date, time, second: seconds, zone: zone)
    }

    static func instant(_ date: CalendarDate, _ time: TimeOfDay, second: Double, zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
                                        second: Int(second))
        guard let whole = calendar.date(from: components) else { return nil }
        return whole.addingTimeInterval(second - second.rounded(.down))
    }

    /// "2026-11-21T10:00:00+01:00": whole seconds, with the zone's offset at that instant.
    public static func string(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        let whole = Date(timeIntervalSince1970: seconds)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let offset = zone.secondsFromGMT(for: whole)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return pad(parts.year ?? 0, 4) + "-" + pad(parts.month ?? 0, 2) + "-" + pad(parts.day ?? 0, 2) + "T"
            + pad(parts.hour ?? 0, 2) + ":" + pad(parts.minute ?? 0, 2) + ":" + pad(parts.second ?? 0, 2)
            + sign + pad(magnitude / 3600, 2) + ":" + pad((magnitude % 3600) / 60, 2)
    }

    /// Like `string(_:in:)` with milliseconds, for result timings where order within a second matters.
    public static func preciseString(_ instant: Date, in zone: TimeZone) -> String {
        let base = string(instant, in: zone)
        let millis = Int(((instant.timeIntervalSince1970 - instant.timeIntervalSince1970.rounded(.down)) * 1000).rounded(.down))
        guard millis > 0 else { return base }
        let split = base.index(base.startIndex, offsetBy: 19)
        return String(base[..<split]) + "." + pad(millis, 3) + String(base[split...])
    }
}

extension Character {
    public var isASCIIDigit: Bool { isASCII && isNumber }
}

/// A non-negative number written with at least `width` digits.
func pad(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension TimeOfDay: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = TimeOfDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a time as HH:mm.")
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension CalendarDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a date as YYYY-MM-DD.")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension TimeOfDay {
    /// The hour and minute of an instant in a zone.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        self = TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0) ?? TimeOfDay(hour: 0, minute: 0)!
    }
}
