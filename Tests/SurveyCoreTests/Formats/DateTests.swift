import Foundation
@testable import SurveyCore
import SurveyRendering
import SurveyTestSupport
import Testing

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: dates")
struct AnswerParserDateTests {
    static let year2026 = AnswerFormat.date(DateFormat(minimumDate: "2026-01-01", maximumDate: "2026-12-31"))

    static func fields(_ day: String?, _ month: String?, _ year: String?, time: String? = nil, name: String = "q") -> [String: String] {
        var fields: [String: String] = [:]
        if let day { fields[name + ".day"] = day }
        if let month { fields[name + ".month"] = month }
        if let year { fields[name + ".year"] = year }
        if let time { fields[name + ".time"] = time }
        return fields
    }

    static func day(_ text: String) -> Answer { .date(.day(CalendarDate(text)!)) }

    @Test("fixed bounds are inclusive",
          arguments: [("1", "1", "2026", true), ("31", "12", "2026", true), ("15", "6", "2026", true),
                      ("31", "12", "2025", false), ("1", "1", "2027", false)] as [(String, String, String, Bool)])
    func fixedBounds(day: String, month: String, year: String, valid: Bool) {
        let outcome = Kit.parse(Self.year2026, Self.fields(day, month, year))
        if valid {
            let expected = CalendarDate(year: Int(year)!, month: Int(month)!, day: Int(day)!)!
            #expect(Kit.answer(outcome) == .date(.day(expected)))
        } else {
            Kit.expectIssue(outcome, .dateOutOfRange, field: "q.day",
                            message: "The date must be between 1 January 2026 and 31 December 2026")
        }
    }

    @Test func oneSidedBoundMessages() {
        let after = AnswerFormat.date(DateFormat(minimumDate: "2026-01-01"))
        Kit.expectIssue(Kit.parse(after, Self.fields("31", "12", "2025")), .dateOutOfRange, field: "q.day",
                        message: "The date must be the same as or after 1 January 2026")
        #expect(Kit.answer(Kit.parse(after, Self.fields("1", "1", "2026"))) == Self.day("2026-01-01"))
        let before = AnswerFormat.date(DateFormat(maximumDate: "2000-02-29"))
        Kit.expectIssue(Kit.parse(before, Self.fields("1", "3", "2000")), .dateOutOfRange, field: "q.day",
                        message: "The date must be the same as or before 29 February 2000")
        #expect(Kit.answer(Kit.parse(before, Self.fields("29", "2", "2000"))) == Self.day("2000-02-29"))
    }

    @Test("impossible dates", arguments: [("31", "2", "2026"), ("29", "2", "2026"), ("29", "2", "1900"), ("31", "4", "2026"),
                                          ("0", "1", "2026"), ("32", "1", "2026"), ("x", "1", "2026"), ("-1", "1", "2026")])
    func impossible(day: String, month: String, year: String) {
        Kit.expectIssue(Kit.parse(.date(DateFormat()), Self.fields(day, month, year)), .invalidDate, field: "q.day",
                        message: "Enter a real date, like 27 3 2007")
    }

    /// The reference (question-pages-govuk-nhs.md §2): "link to the first field with an error, or to the
    /// first field if you cannot tell which". A month that can never be a month is the month's error.
    @Test("an impossible month is marked on the month field", arguments: ["0", "13", "ma", "Foo"])
    func impossibleMonth(month: String) {
        Kit.expectIssue(Kit.parse(.date(DateFormat()), Self.fields("1", month, "2026", name: "dob"), name: "dob"), .invalidDate,
                        field: "dob.month")
    }

    @Test("a year that is not a number is marked on the year field", arguments: ["2O26", "year", "-202", "0000"])
    func impossibleYear(year: String) {
        Kit.expectIssue(Kit.parse(.date(DateFormat()), Self.fields("1", "3", year, name: "dob"), name: "dob"), .invalidDate,
                        field: "dob.year")
    }

    @Test func leapDays() {
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), Self.fields("29", "2", "2028"))) == Self.day("2028-02-29"))
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), Self.fields("29", "2", "2000"))) == Self.day("2000-02-29"))
    }

    @Test("a year needs four digits", arguments: ["26", "202", "20260", "6", "+202"])
    func shortYear(year: String) {
        Kit.expectIssue(Kit.parse(.date(DateFormat()), Self.fields("10", "3", year)), .invalidDate, field: "q.year",
                        message: "Year must include 4 numbers")
    }

    @Test("a missing part is incomplete on that part's field",
          arguments: [(nil, "3", "2026", "day"), ("10", nil, "2026", "month"), ("10", "3", nil, "year"),
                      (nil, nil, "2026", "day"), ("10", nil, nil, "month"), ("  ", "3", "2026", "day")] as [(String?, String?, String?, String)])
    func missingPart(day: String?, month: String?, year: String?, part: String) {
        Kit.expectIssue(Kit.parse(.date(DateFormat()), Self.fields(day, month, year, name: "dob"), name: "dob"), .incomplete,
                        field: "dob.\(part)", message: "The date must include a \(part)")
    }

    @Test("months by name", arguments: [("March", 3), ("mar", 3), ("MAR", 3), ("sept", 9), ("Sep", 9), ("jun", 6), ("jul", 7),
                                        ("december", 12), ("03", 3), ("3", 3)] as [(String, Int)])
    func monthNames(month: String, number: Int) {
        let expected = CalendarDate(year: 2026, month: number, day: 10)!
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), Self.fields("10", month, "2026"))) == .date(.day(expected)))
    }

    @Test func partsAreTrimmedAndZeroPadded() {
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), Self.fields(" 05 ", " 03 ", " 2026 "))) == Self.day("2026-03-05"))
    }

    @Test func nativeDateField() {
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), ["q": "2026-03-10"])) == Self.day("2026-03-10"))
        Kit.expectIssue(Kit.parse(.date(DateFormat()), ["q": "2026-02-30"]), .invalidDate, field: "q")
        Kit.expectIssue(Kit.parse(.date(DateFormat()), ["q": "10/03/2026"]), .invalidDate, field: "q")
        Kit.expectIssue(Kit.parse(Self.year2026, ["q": "2027-01-01"]), .dateOutOfRange, field: "q.day")
        #expect(Kit.isEmpty(Kit.parse(.date(DateFormat()), [:])))
        #expect(Kit.isEmpty(Kit.parse(.date(DateFormat()), Self.fields("", " ", ""))))
    }

    @Test func aTimeWithoutADateIsIncomplete() {
        let format = AnswerFormat.date(DateFormat(style: .dateAndTime))
        Kit.expectIssue(Kit.parse(format, ["q.time": "09:30"]), .incomplete, field: "q.day", message: "Enter a date")
    }

    /// "Today" is the day of `now` in the context's zone: 23:30 UTC on 10 March is 11 March in Auckland.
    @Test("days before and after now, in the participant's zone",
          arguments: [("7", false, false), ("8", true, false), ("9", true, true), ("10", true, true), ("11", true, true),
                      ("12", false, true), ("13", false, false)] as [(String, Bool, Bool)])
    func relativeDays(day: String, validInUTC: Bool, validInAuckland: Bool) {
        let format = AnswerFormat.date(DateFormat(daysBeforeCurrentDate: 2, daysAfterCurrentDate: 1))
        let now = Kit.instant("2026-03-10T23:30:00Z")
        for (zone, valid) in [(Kit.utc, validInUTC), (Kit.auckland, validInAuckland)] {
            let outcome = Kit.parse(format, Self.fields(day, "3", "2026"), now: now, zone: zone)
            if valid {
                #expect(Kit.answer(outcome) == .date(.day(CalendarDate(year: 2026, month: 3, day: Int(day)!)!)), "\(zone.identifier)")
            } else {
                Kit.expectIssue(outcome, .dateOutOfRange, field: "q.day")
            }
        }
    }

    @Test func relativeDayMessages() {
        let now = Kit.instant("2026-03-10T23:30:00Z")
        let todayOnly = AnswerFormat.date(DateFormat(daysBeforeCurrentDate: 0, daysAfterCurrentDate: 0))
        Kit.expectIssue(Kit.parse(todayOnly, Self.fields("10", "3", "2026"), now: now, zone: Kit.auckland), .dateOutOfRange,
                        field: "q.day", message: "The date must be 11 March 2026")
        let past = AnswerFormat.date(DateFormat(daysAfterCurrentDate: 0))
        Kit.expectIssue(Kit.parse(past, Self.fields("11", "3", "2026"), now: now, zone: Kit.utc), .dateOutOfRange,
                        field: "q.day", message: "The date must be the same as or before 10 March 2026")
        #expect(Kit.answer(Kit.parse(past, Self.fields("1", "1", "1900"), now: now, zone: Kit.utc)) == Self.day("1900-01-01"))
    }

    // dateAndTime

    static let meeting = AnswerFormat.date(DateFormat(style: .dateAndTime))

    @Test func dateAndTimeNeedsATime() {
        Kit.expectIssue(Kit.parse(Self.meeting, Self.fields("10", "3", "2026")), .incomplete, field: "q.time",
                        message: "Enter a time, like 14:30")
        Kit.expectIssue(Kit.parse(Self.meeting, ["q": "2026-03-10"]), .incomplete, field: "q.time")
        Kit.expectIssue(Kit.parse(Self.meeting, Self.fields("10", "3", "2026", time: "25:00")), .invalidDate, field: "q.time",
                        message: "Enter a time, like 14:30")
        Kit.expectIssue(Kit.parse(Self.meeting, Self.fields("10", "3", "2026", time: "soon")), .invalidDate, field: "q.time")
    }

    @Test("dateAndTime records an instant in the context's zone",
          arguments: [("9:30pm", "UTC", "2026-03-10T21:30:00+00:00"), ("09:30", "Europe/Berlin", "2026-03-10T09:30:00+01:00"),
                      ("0000", "Pacific/Auckland", "2026-03-10T00:00:00+13:00"), ("23:59", "UTC", "2026-03-10T23:59:00+00:00")]
            as [(String, String, String)])
    func dateAndTimeInstant(time: String, zoneName: String, expected: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let outcome = Kit.parse(Self.meeting, Self.fields("10", "3", "2026", time: time), zone: zone)
        guard case .answer(.date(.instant(let instant))) = outcome else {
            Issue.record("expected an instant, got \(outcome)")
            return
        }
        #expect(DateTimeParsing.string(instant, in: zone) == expected)
    }

    @Test func nativeDateTimeField() throws {
        let outcome = Kit.parse(Self.meeting, ["q": "2026-03-10T09:30"], zone: Kit.berlin)
        guard case .answer(.date(.instant(let instant))) = outcome else {
            Issue.record("expected an instant, got \(outcome)")
            return
        }
        #expect(DateTimeParsing.string(instant, in: Kit.berlin) == "2026-03-10T09:30:00+01:00")
    }

    @Test func dateAndTimeMinuteInterval() {
        let format = AnswerFormat.date(DateFormat(style: .dateAndTime, minuteInterval: 15))
        #expect(Kit.answer(Kit.parse(format, Self.fields("10", "3", "2026", time: "09:45"))) != nil)
        Kit.expectIssue(Kit.parse(format, Self.fields("10", "3", "2026", time: "09:50")), .notOnInterval, field: "q.time",
                        message: "Enter a time in steps of 15 minutes, like 14:30")
    }

    @Test func dateAndTimeBounds() {
        // A plain day as the maximum allows the whole of that day.
        let untilTenth = AnswerFormat.date(DateFormat(style: .dateAndTime, maximumDate: "2026-03-10"))
        #expect(Kit.answer(Kit.parse(untilTenth, Self.fields("10", "3", "2026", time: "23:59"))) != nil)
        Kit.expectIssue(Kit.parse(untilTenth, Self.fields("11", "3", "2026", time: "00:00")), .dateOutOfRange, field: "q.day")
        // A bound with a time is exact to the minute.
        let fromNine = AnswerFormat.date(DateFormat(style: .dateAndTime, minimumDate: "2026-03-10T09:00:00Z"))
        #expect(Kit.answer(Kit.parse(fromNine, Self.fields("10", "3", "2026", time: "09:00"))) != nil)
        Kit.expectIssue(Kit.parse(fromNine, Self.fields("10", "3", "2026", time: "08:59")), .dateOutOfRange, field: "q.day")
        // Relative days cover whole days in the zone.
        let now = Kit.instant("2026-03-10T23:30:00Z")
        let week = AnswerFormat.date(DateFormat(style: .dateAndTime, daysBeforeCurrentDate: 0, daysAfterCurrentDate: 0))
        #expect(Kit.answer(Kit.parse(week, Self.fields("11", "3", "2026", time: "00:00"), now: now, zone: Kit.auckland)) != nil)
        #expect(Kit.answer(Kit.parse(week, Self.fields("11", "3", "2026", time: "23:59"), now: now, zone: Kit.auckland)) != nil)
        Kit.expectIssue(Kit.parse(week, Self.fields("10", "3", "2026", time: "23:59"), now: now, zone: Kit.auckland),
                        .dateOutOfRange, field: "q.day")
    }
}
