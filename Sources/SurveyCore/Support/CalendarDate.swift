import Foundation
import JSON

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

    /// The first and last day of a FHIR date of lower precision: "YYYY" or "YYYY-MM"; nil for anything else.
    public static func span(ofPartial text: String) -> ClosedRange<CalendarDate>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let year = Int(parts[0]) else { return nil }
        let months = parts.count == 2 ? Int(parts[1]).map { $0...$0 } : 1...12
        guard let months, let first = CalendarDate(year: year, month: months.lowerBound, day: 1),
              let last = CalendarDate(year: year, month: months.upperBound, day: daysIn(month: months.upperBound, year: year)) else { return nil }
        return first...last
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
