import Foundation
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

/// Every format that reads digits a participant typed reads Arabic-Indic and Eastern Arabic
/// digits as the same digits: the answer, or the problem, is the one the ASCII digits give.
@Suite("AnswerParser: digits typed on an Arabic or Persian keyboard")
struct LocaleDigitsFormatTests {
    /// One typed answer: the format, and its fields with ASCII digits.
    struct Typed: Sendable, CustomTestStringConvertible {
        let label: String
        let format: AnswerFormat
        let fields: [String: String]
        var testDescription: String { label }
    }

    static let typed: [Typed] = [
        Typed(label: "date 15 3 2026", format: .date(DateFormat()), fields: ["q.day": "15", "q.month": "3", "q.year": "2026"]),
        Typed(label: "date 09 03 2026", format: .date(DateFormat()), fields: ["q.day": "09", "q.month": "03", "q.year": "2026"]),
        Typed(label: "date 31 2 2026", format: .date(DateFormat()), fields: ["q.day": "31", "q.month": "2", "q.year": "2026"]),
        Typed(label: "date with a 3-digit year", format: .date(DateFormat()), fields: ["q.day": "1", "q.month": "2", "q.year": "926"]),
        Typed(label: "date out of range", format: .date(DateFormat(maximumDate: "2026-03-10")),
              fields: ["q.day": "11", "q.month": "3", "q.year": "2026"]),
        Typed(label: "native date field", format: .date(DateFormat()), fields: ["q": "2026-03-15"]),
        Typed(label: "date and time", format: .date(DateFormat(style: .dateAndTime)),
              fields: ["q.day": "15", "q.month": "3", "q.year": "2026", "q.time": "9:30"]),
        Typed(label: "time 9:30", format: .timeOfDay(TimeOfDayFormat()), fields: ["q": "9:30"]),
        Typed(label: "time 2130", format: .timeOfDay(TimeOfDayFormat()), fields: ["q": "2130"]),
        Typed(label: "time 9.45pm", format: .timeOfDay(TimeOfDayFormat()), fields: ["q": "9.45pm"]),
        Typed(label: "time 25:00", format: .timeOfDay(TimeOfDayFormat()), fields: ["q": "25:00"]),
        Typed(label: "interval 1 h 30 min", format: .timeInterval(TimeIntervalFormat()), fields: ["q.hours": "1", "q.minutes": "30"]),
        Typed(label: "interval 75 min", format: .timeInterval(TimeIntervalFormat()), fields: ["q.hours": "0", "q.minutes": "75"]),
        Typed(label: "age 42", format: .age(AgeFormat()), fields: ["q": "42"]),
        Typed(label: "age 130", format: .age(AgeFormat()), fields: ["q": "130"]),
        Typed(label: "scale 7", format: .scale(ScaleFormat(minimum: 0, maximum: 10)), fields: ["q": "7"]),
        Typed(label: "continuous scale 2.5", format: .continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 10, maximumFractionDigits: 1)),
              fields: ["q": "2.5"]),
        Typed(label: "numeric 1234.5", format: .numeric(NumericFormat(style: .decimal)), fields: ["q": "1234.5"]),
        Typed(label: "numeric integer 12", format: .numeric(NumericFormat(style: .integer)), fields: ["q": "12"]),
        Typed(label: "height 170.5 cm", format: .height(HeightFormat(measurementSystem: .metric)), fields: ["q": "170.5"]),
        Typed(label: "height 5 ft 11 in", format: .height(HeightFormat(measurementSystem: .USC)), fields: ["q.feet": "5", "q.inches": "11"]),
        Typed(label: "weight 68.5 kg", format: .weight(WeightFormat(measurementSystem: .metric)), fields: ["q": "68.5"]),
        Typed(label: "ladder rung 6", format: .ses(SESFormat()), fields: ["q": "6"]),
    ]

    /// ASCII digits written with the digits that start at `zero` (U+0660 or U+06F0).
    static func digits(_ text: String, zero: UInt32) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard ("0"..."9").contains(scalar) else { return scalar }
            return Unicode.Scalar(zero + scalar.value - 0x30)!
        }))
    }

    @Test("the same outcome in Arabic-Indic, Eastern Arabic and ASCII digits",
          arguments: ["en", "es", "de", "fr", "ar"], typed)
    func sameOutcome(language: String, typed: Typed) {
        let ascii = Kit.parse(typed.format, typed.fields, language: language)
        for zero: UInt32 in [0x0660, 0x06F0] {
            let fields = typed.fields.mapValues { Self.digits($0, zero: zero) }
            #expect(fields != typed.fields)
            #expect(Kit.parse(typed.format, fields, language: language) == ascii, "\(fields)")
        }
    }

    @Test func aDateTypedInArabicDigitsIsTheSameDay() {
        let fields = ["q.day": "١٥", "q.month": "٣", "q.year": "٢٠٢٦"]
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), fields, language: "ar")) == .date(.day(CalendarDate("2026-03-15")!)))
        let persian = ["q.day": "۱۵", "q.month": "۰۳", "q.year": "۲۰۲۶"]
        #expect(Kit.answer(Kit.parse(.date(DateFormat()), persian, language: "ar")) == .date(.day(CalendarDate("2026-03-15")!)))
    }

    @Test func timesAndIntervalsInArabicDigits() {
        #expect(Kit.answer(Kit.parse(.timeOfDay(TimeOfDayFormat()), ["q": "٩:٣٠"], language: "ar")) == .timeOfDay(TimeOfDay(hour: 9, minute: 30)!))
        #expect(Kit.answer(Kit.parse(.timeInterval(TimeIntervalFormat()), ["q.hours": "٢", "q.minutes": "١٥"], language: "ar"))
                == .timeInterval(8100))
    }

    @Test func numbersWithTheArabicDecimalSeparator() {
        #expect(Kit.numeric(Kit.parse(.numeric(NumericFormat(style: .decimal)), ["q": "١٢٫٥"], language: "ar")) == 12.5)
        #expect(Kit.numeric(Kit.parse(.height(HeightFormat(measurementSystem: .metric)), ["q": "١٧٠٫٥"], language: "ar")) == 170.5)
        #expect(Kit.numeric(Kit.parse(.age(AgeFormat()), ["q": "٤٢"], language: "ar")) == 42)
    }
}
