import FHIRPath
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
        GregorianDays.daysIn(month: month, year: year)
    }

    public var description: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    /// Days since 1970-01-01 (proleptic Gregorian), for arithmetic and comparison.
    public var dayNumber: Int {
        GregorianDays.sinceEpoch(year: year, month: month, day: day)
    }

    public init?(dayNumber: Int) {
        let (year, month, day) = GregorianDays.civil(dayNumber)
        self.init(year: year, month: month, day: day)
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
