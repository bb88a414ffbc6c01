import Foundation
import PropertyBased
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

/// Rules that hold for every input, checked on random ones.
@Suite("Answer validation properties")
struct AnswerPropertyTests {
    /// Digits with a separator every three places: 1234567 → "1,234,567".
    static func grouped(_ number: Int, _ separator: String) -> String {
        let digits = String(number.magnitude)
        var groups: [String] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(String(digits[start..<end]), at: 0)
            end = start
        }
        return (number < 0 ? "-" : "") + groups.joined(separator: separator)
    }

    /// `mantissa / 10^digits` written with exactly `digits` fraction digits, with no binary rounding on the way.
    static func decimalText(_ mantissa: Int, digits: Int, separator: String = ".") -> String {
        let sign = mantissa < 0 ? "-" : ""
        let text = String(mantissa.magnitude)
        guard digits > 0 else { return sign + text }
        let padded = String(repeating: "0", count: max(0, digits + 1 - text.count)) + text
        return sign + padded.dropLast(digits) + separator + padded.suffix(digits)
    }

    static func outcomeCode(_ outcome: FieldOutcome) -> AnswerIssue.Code? { Kit.issues(outcome).first?.code }

    // MARK: Numeric bounds

    @Test func everyIntegerInsideTheBoundsIsAccepted() async {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer, minimum: -50, maximum: 150))
        await propertyCheck(input: Gen.int(in: -50...150)) { n in
            #expect(Kit.numeric(Kit.parse(format, ["q": String(n)])) == Double(n))
        }
    }

    @Test func everyIntegerOutsideTheBoundsIsOutOfRange() async {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer, minimum: -50, maximum: 150))
        await propertyCheck(input: Gen.int(in: 1...1_000_000), Gen.bool) { distance, below in
            let n = below ? -50 - distance : 150 + distance
            Kit.expectIssue(Kit.parse(format, ["q": String(n)]), .outOfRange, field: "q")
        }
    }

    @Test func randomBoundsAcceptExactlyTheIntegersBetweenThem() async {
        await propertyCheck(count: 300, input: Gen.int(in: -10_000...10_000), Gen.int(in: 0...1000), Gen.int(in: -1100...2100), Gen.bool) {
            low, width, offset, integer in
            let high = low + width
            let n = low + offset
            let format = AnswerFormat.numeric(NumericFormat(style: integer ? .integer : .decimal, minimum: Double(low), maximum: Double(high)))
            let outcome = Kit.parse(format, ["n": String(n)], name: "n")
            if (low...high).contains(n) {
                #expect(Kit.numeric(outcome) == Double(n))
            } else {
                Kit.expectIssue(outcome, .outOfRange, field: "n")
            }
        }
    }

    @Test func groupedIntegersReadTheSameInEveryLanguage() async {
        await propertyCheck(input: Gen.int(in: -999_999_999_999...999_999_999_999)) { n in
            #expect(NumberParsing.parse(Self.grouped(n, ","), language: "en")?.value == Double(n))
            #expect(NumberParsing.parse(Self.grouped(n, " "), language: "en")?.value == Double(n))
            #expect(NumberParsing.parse(Self.grouped(n, "."), language: "de")?.value == Double(n))
            #expect(NumberParsing.parse(Self.grouped(n, "\u{202F}"), language: "fr")?.value == Double(n))
            #expect(NumberParsing.parse(String(n).replacingOccurrences(of: "-", with: "\u{2212}"), language: "en")?.value == Double(n))
            #expect(NumberParsing.parse(" \(n) ", language: "de")?.fractionDigits == 0)
        }
    }

    // MARK: Fraction digits

    @Test func formattedDoublesRoundTrip() async {
        await propertyCheck(count: 300, input: Gen.double(in: -1_000_000...1_000_000), Gen.int(in: 0...6), Gen.int(in: 0...3)) { value, k, extra in
            let maxDigits = k + extra
            let text = String(format: "%.\(k)f", value)
            let expected = Double(text)!
            let parsed = NumberParsing.parse(text, language: "en")
            #expect(parsed?.value == expected, "\(text)")
            #expect((parsed?.fractionDigits ?? 99) <= k, "\(text)")
            let format = AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: maxDigits))
            #expect(Kit.numeric(Kit.parse(format, ["q": text])) == expected, "\(text) with \(maxDigits) digits allowed")
            // The same number with a decimal comma, for a comma language.
            let comma = text.replacingOccurrences(of: ".", with: ",")
            #expect(Kit.numeric(Kit.parse(format, ["q": comma], language: "de")) == expected, "\(comma)")
        }
    }

    @Test func fractionDigitsCountIgnoresTrailingZeros() async {
        await propertyCheck(input: Gen.int(in: -9_999_999...9_999_999), Gen.int(in: 0...5), Gen.int(in: 0...4)) { mantissa, digits, zeros in
            let text = Self.decimalText(mantissa, digits: digits) + (digits > 0 ? String(repeating: "0", count: zeros) : "")
            let parsed = NumberParsing.parse(text, language: "en")
            var significant = digits
            var rest = mantissa.magnitude
            while significant > 0, rest % 10 == 0 {
                significant -= 1
                rest /= 10
            }
            #expect(parsed?.fractionDigits == significant, "\(text)")
            #expect(parsed?.value == Double(text), "\(text)")
        }
    }

    @Test func oneDigitTooManyIsRefused() async {
        await propertyCheck(input: Gen.int(in: -99_999...99_999), Gen.int(in: 0...4), Gen.int(in: 0...9999), Gen.int(in: 1...9)) {
            whole, allowed, fraction, last in
            let head = String(fraction).suffix(allowed)
            let digits = String(repeating: "0", count: allowed - head.count) + head + String(last)
            let text = "\(whole).\(digits)"
            let format = AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: allowed))
            Kit.expectIssue(Kit.parse(format, ["q": text]), .tooManyFractionDigits, field: "q")
            Kit.expectIssue(Kit.parse(.numeric(NumericFormat(style: .integer)), ["q": text]), .notAWholeNumber, field: "q")
        }
    }

    @Test func continuousScaleAcceptsEveryValueOnItsPrecision() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...4), Gen.int(in: -1000...1000), Gen.int(in: 1...2000), Gen.int(in: 0...2000)) {
            digits, lowUnits, width, offset in
            let unit = pow(10, Double(digits))
            let low = Double(lowUnits) / unit
            let high = Double(lowUnits + width) / unit
            let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: low, maximum: high, maximumFractionDigits: digits))
            let units = lowUnits + min(offset, width)
            let text = Self.decimalText(units, digits: digits)
            #expect(Kit.scale(Kit.parse(format, ["q": text])) == Double(text)!, "\(text) in \(low)...\(high)")
            let below = Self.decimalText(lowUnits - 1 - offset, digits: digits)
            Kit.expectIssue(Kit.parse(format, ["q": below]), .outOfRange, field: "q")
            let above = Self.decimalText(lowUnits + width + 1 + offset, digits: digits)
            Kit.expectIssue(Kit.parse(format, ["q": above]), .outOfRange, field: "q")
        }
    }

    // MARK: Discrete scale

    @Test func everyScaleGridValueIsAcceptedAndEveryOffGridValueRefused() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1000...1000), Gen.int(in: 1...20), Gen.int(in: 1...13)) { minimum, step, steps in
            let maximum = minimum + step * steps
            let format = AnswerFormat.scale(ScaleFormat(minimum: minimum, maximum: maximum, step: step))
            for value in minimum...maximum {
                let outcome = Kit.parse(format, ["q": String(value)])
                if (value - minimum) % step == 0 {
                    #expect(Kit.scale(outcome) == Double(value), "\(value) on \(minimum)...\(maximum) by \(step)")
                } else {
                    Kit.expectIssue(outcome, .notAChoice, field: "q")
                }
            }
            Kit.expectIssue(Kit.parse(format, ["q": String(minimum - 1)]), .outOfRange, field: "q")
            Kit.expectIssue(Kit.parse(format, ["q": String(maximum + 1)]), .outOfRange, field: "q")
            Kit.expectIssue(Kit.parse(format, ["q": "\(minimum).5"]), .notAChoice, field: "q")
        }
    }

    // MARK: Text length

    @Test func textWithinTheLimitIsAcceptedAndLongerTextRefused() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...40), Gen.letterOrNumber.string(of: 1...80)) { limit, text in
            let outcome = Kit.parse(.text(TextFormat(maximumLength: limit)), ["q": text])
            if text.count <= limit {
                #expect(Kit.answer(outcome) == .text(text))
            } else {
                Kit.expectIssue(outcome, .tooLong, field: "q", message: "Answer must be \(limit) characters or fewer")
            }
        }
    }

    @Test func textLengthIsCountedInUTF16AfterLineEndsAreNormalised() async {
        let pieces = ["a", "Z", "7", "é", "😀", "中", "\r\n", "\n", "👩‍👩‍👧"]
        let texts = Gen<String?>.element(of: pieces).map { $0! }.array(of: 1...30).map { ["x"] + $0 + ["y"] }.map { $0.joined() }
        await propertyCheck(count: 300, input: Gen.int(in: 1...60), texts) { limit, raw in
            let recorded = raw.replacingOccurrences(of: "\r\n", with: "\n")
            let outcome = Kit.parse(.text(TextFormat(maximumLength: limit)), ["q": raw])
            if recorded.utf16.count <= limit {
                #expect(Kit.answer(outcome) == .text(recorded))
            } else {
                Kit.expectIssue(outcome, .tooLong, field: "q")
            }
        }
    }

    // MARK: Times and dates

    @Test func everyTimeOfDayReadsInEveryForm() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...23), Gen.int(in: 0...59)) { hour, minute in
            let expected = Answer.timeOfDay(TimeOfDay(hour: hour, minute: minute)!)
            let hh = hour < 10 ? "0\(hour)" : "\(hour)"
            let mm = minute < 10 ? "0\(minute)" : "\(minute)"
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            let meridiem = hour < 12 ? "am" : "PM"
            for form in ["\(hour):\(mm)", "\(hh).\(mm)", "\(hh)\(mm)", "\(hh)h\(mm)", "\(twelve):\(mm) \(meridiem)", "\(twelve)\(mm)\(meridiem)"] {
                #expect(Kit.answer(Kit.parse(.timeOfDay(TimeOfDayFormat()), ["q": form])) == expected, "\(form)")
            }
        }
    }

    @Test func timeOfDayMinuteInterval() async {
        let intervals = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30]
        await propertyCheck(count: 300, input: Gen<Int?>.element(of: intervals).map { $0! }, Gen.int(in: 0...23), Gen.int(in: 0...59)) {
            interval, hour, minute in
            let raw = "\(hour):" + (minute < 10 ? "0\(minute)" : "\(minute)")
            let outcome = Kit.parse(.timeOfDay(TimeOfDayFormat(minuteInterval: interval)), ["q": raw])
            if minute % interval == 0 {
                #expect(Kit.answer(outcome) == .timeOfDay(TimeOfDay(hour: hour, minute: minute)!))
            } else {
                Kit.expectIssue(outcome, .notOnInterval, field: "q")
            }
        }
    }

    @Test func timeIntervalStep() async {
        let steps = [1, 2, 5, 10, 15, 20, 30]
        await propertyCheck(count: 300, input: Gen<Int?>.element(of: steps).map { $0! }, Gen.int(in: 0...23), Gen.int(in: 0...59)) {
            step, hours, minutes in
            let outcome = Kit.parse(.timeInterval(TimeIntervalFormat(step: step)), ["bed.hours": String(hours), "bed.minutes": String(minutes)],
                                    name: "bed")
            if minutes % step == 0 {
                #expect(Kit.answer(outcome) == .timeInterval(Double(hours * 3600 + minutes * 60)))
            } else {
                Kit.expectIssue(outcome, .notOnInterval, field: "bed.minutes")
            }
        }
    }

    @Test func everyRealDateReadsFromThreeFieldsAndNativeField() async {
        let first = CalendarDate(year: 1900, month: 1, day: 1)!.dayNumber
        let last = CalendarDate(year: 2100, month: 12, day: 31)!.dayNumber
        await propertyCheck(count: 300, input: Gen.int(in: first...last), Gen.bool) { dayNumber, byName in
            let date = CalendarDate(dayNumber: dayNumber)!
            let month = byName ? String(DateFormat.typedMonthNames[date.month - 1].prefix(3)) : String(date.month)
            let fields = ["q.day": String(date.day), "q.month": month, "q.year": String(date.year)]
            #expect(Kit.answer(Kit.parse(.date(DateFormat()), fields)) == .date(.day(date)))
            #expect(Kit.answer(Kit.parse(.date(DateFormat()), ["q": date.description])) == .date(.day(date)))
        }
    }

    @Test func dateBoundsAreInclusive() async {
        let base = CalendarDate(year: 2026, month: 1, day: 1)!.dayNumber
        await propertyCheck(count: 300, input: Gen.int(in: 0...400), Gen.int(in: 0...60), Gen.int(in: -100...500)) { start, length, offset in
            let minimum = CalendarDate(dayNumber: base + start)!
            let maximum = CalendarDate(dayNumber: base + start + length)!
            let date = CalendarDate(dayNumber: base + start + offset)!
            let format = AnswerFormat.date(DateFormat(minimumDate: minimum.description, maximumDate: maximum.description))
            let outcome = Kit.parse(format, ["dob.day": String(date.day), "dob.month": String(date.month), "dob.year": String(date.year)],
                                    name: "dob", zone: Kit.auckland)
            if minimum <= date, date <= maximum {
                #expect(Kit.answer(outcome) == .date(.day(date)))
            } else {
                Kit.expectIssue(outcome, .dateOutOfRange, field: "dob.day")
            }
        }
    }

    @Test func daysAroundNowFollowTheZone() async {
        let zones = ["UTC", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
        await propertyCheck(count: 300, input: Gen<String?>.element(of: zones).map { $0! }, Gen.int(in: 0...(86_400 * 365)), Gen.int(in: 0...10),
                            Gen.int(in: 0...10), Gen.int(in: -15...15)) { zoneName, seconds, before, after, offset in
            let zone = TimeZone(identifier: zoneName)!
            let now = Date(timeIntervalSince1970: 1_767_225_600 + Double(seconds))
            let today = CalendarDate(now, in: zone)
            let date = today.adding(days: offset)!
            let format = AnswerFormat.date(DateFormat(daysBeforeCurrentDate: before, daysAfterCurrentDate: after))
            let outcome = Kit.parse(format, ["q": date.description], now: now, zone: zone)
            if (-before...after).contains(offset) {
                #expect(Kit.answer(outcome) == .date(.day(date)))
            } else {
                Kit.expectIssue(outcome, .dateOutOfRange, field: "q.day")
            }
        }
    }

    @Test("The last allowed day ends at the next midnight, also on a day whose clocks go forward")
    func lastDayOnAClockChange() {
        // Auckland's clocks go forward on 27 September 2026, a day of 23 hours.
        let zone = TimeZone(identifier: "Pacific/Auckland")!
        let now = Date(timeIntervalSince1970: 1_789_646_400)  // 18 September 2026, 00:00 in Auckland
        let format = AnswerFormat.date(DateFormat(daysBeforeCurrentDate: 0, daysAfterCurrentDate: 9))
        #expect(Kit.answer(Kit.parse(format, ["q": "2026-09-27"], now: now, zone: zone)) == .date(.day(CalendarDate("2026-09-27")!)))
        Kit.expectIssue(Kit.parse(format, ["q": "2026-09-28"], now: now, zone: zone), .dateOutOfRange, field: "q.day")
    }

    // MARK: Measurements

    @Test func feetAndInchesConvertToCentimetres() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...9), Gen.int(in: 0...119)) { feet, tenthsOfInch in
            guard feet > 0 || tenthsOfInch > 0 else { return }
            let inches = Self.decimalText(tenthsOfInch, digits: 1)
            let outcome = Kit.parse(.height(HeightFormat(measurementSystem: .USC)), ["h.feet": String(feet), "h.inches": inches], name: "h")
            let centimetres = (Double(feet) * 12 + Double(tenthsOfInch) / 10) * 2.54
            let expected = (centimetres * 100).rounded() / 100
            #expect(Kit.numeric(outcome) == expected)
            #expect(abs(expected - centimetres) <= 0.005 + 1e-9)
        }
    }

    @Test func poundsAndOuncesConvertToKilograms() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1449), Gen.int(in: 0...15)) { pounds, ounces in
            let format = AnswerFormat.weight(WeightFormat(measurementSystem: .USC, numericPrecision: .high))
            let outcome = Kit.parse(format, ["w.pounds": String(pounds), "w.ounces": String(ounces)], name: "w")
            let kilograms = (Double(pounds) + Double(ounces) / 16) * 0.453_592_37
            #expect(Kit.numeric(outcome) == (kilograms * 100).rounded() / 100)
        }
    }

    @Test func metricWeightPrecision() async {
        let precisions: [(NumericPrecision?, Int)] = [(nil, 1), (.low, 0), (.default, 1), (.high, 2)]
        await propertyCheck(count: 300, input: Gen.int(in: 0...3), Gen.int(in: 0...65_700), Gen.int(in: 0...3)) { which, hundredths, shownDigits in
            let (precision, allowed) = precisions[which]
            let format = AnswerFormat.weight(WeightFormat(measurementSystem: .metric, numericPrecision: precision))
            // Keep only `shownDigits` decimals of the random weight.
            let scale = Int(pow(10, Double(2 - min(shownDigits, 2))))
            let units = hundredths / scale * scale
            let text = Self.decimalText(units, digits: 2)
            let significant = NumberParsing.parse(text, language: "en")!.fractionDigits
            let outcome = Kit.parse(format, ["w": text], name: "w")
            if significant <= allowed {
                #expect(Kit.numeric(outcome) == Double(text)!)
            } else {
                Kit.expectIssue(outcome, .tooManyFractionDigits, field: "w")
            }
        }
    }

    // MARK: Age and SES

    @Test func agesInRangeAreAcceptedAndOutsideRefused() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100), Gen.int(in: 1...50), Gen.int(in: -10...200), Gen.bool) {
            minimum, width, age, useYear in
            let maximum = min(minimum + width, 150)
            let format = AnswerFormat.age(AgeFormat(minimumAge: minimum, maximumAge: maximum, useYearForResult: useYear, relativeYear: 2026))
            let outcome = Kit.parse(format, ["age": String(age)], name: "age")
            if (minimum...maximum).contains(age) {
                #expect(Kit.numeric(outcome) == Double(useYear ? 2026 - age : age))
            } else {
                Kit.expectIssue(outcome, .outOfRange, field: "age")
            }
        }
    }

    @Test func sesAcceptsExactlyTheTenRungs() async {
        await propertyCheck(input: Gen.int(in: -100...100)) { rung in
            let outcome = Kit.parse(.ses(SESFormat()), ["q": String(rung)])
            if (1...10).contains(rung) {
                #expect(Kit.answer(outcome) == .ses(rung))
            } else {
                Kit.expectIssue(outcome, .notAChoice, field: "q")
            }
        }
    }

    // MARK: Garbage

    @Test func lettersAreNeverNumbers() async {
        await propertyCheck(input: Gen.letter.string(of: 1...12), Gen.int(in: 0...999)) { letters, n in
            for text in [letters, "\(n)\(letters)", "\(letters)\(n)"] {
                #expect(NumberParsing.parse(text, language: "en") == nil, "\(text)")
                #expect(NumberParsing.parse(text, language: "de") == nil, "\(text)")
            }
            Kit.expectIssue(Kit.parse(.numeric(NumericFormat()), ["q": letters]), .notANumber, field: "q")
        }
    }
}
