import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

// MARK: - Helpers shared by AnswerParserTests, NumberParsingTests and AnswerPropertyTests

/// Builds forms, contexts and outcomes for the answer validation tests.
enum AnswerTestKit {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let auckland = TimeZone(identifier: "Pacific/Auckland")!

    /// 2026-03-10T12:00:00Z, a Tuesday.
    static let noon = instant("2026-03-10T12:00:00Z")

    static func instant(_ text: String) -> Date {
        DateTimeParsing.instant(text, defaultZone: utc)!
    }

    static func context(_ language: String? = "en", now: Date = noon, zone: TimeZone = utc) -> AnswerContext {
        AnswerContext(language: language, now: now, timeZone: zone)
    }

    /// Parses one question called "q" (or `name`) from single-valued fields.
    static func parse(_ format: AnswerFormat, _ fields: [String: String], name: String = "q", language: String? = "en",
                      now: Date = noon, zone: TimeZone = utc) -> FieldOutcome {
        AnswerParser.parse(format, name: name, fields: FormFields(fields.mapValues { [$0] }),
                           context: context(language, now: now, zone: zone))
    }

    /// Parses from ordered pairs, for fields sent several times (checkboxes).
    static func parse(_ format: AnswerFormat, pairs: [(String, String)], name: String = "q", language: String? = "en") -> FieldOutcome {
        AnswerParser.parse(format, name: name, fields: FormFields(pairs: pairs), context: context(language))
    }

    static func answer(_ outcome: FieldOutcome) -> Answer? {
        if case .answer(let answer) = outcome { return answer }
        return nil
    }

    static func issues(_ outcome: FieldOutcome) -> [AnswerIssue] {
        if case .invalid(let issues) = outcome { return issues }
        return []
    }

    static func numeric(_ outcome: FieldOutcome) -> Double? {
        if case .answer(.numeric(let value)) = outcome { return value }
        return nil
    }

    static func scale(_ outcome: FieldOutcome) -> Double? {
        if case .answer(.scale(let value)) = outcome { return value }
        return nil
    }

    static func isEmpty(_ outcome: FieldOutcome) -> Bool {
        if case .empty = outcome { return true }
        return false
    }

    /// Expects exactly one issue with this code and field (and message, when given).
    static func expectIssue(_ outcome: FieldOutcome, _ code: AnswerIssue.Code, field: String, message: String? = nil,
                            language: String = "en", sourceLocation: SourceLocation = #_sourceLocation) {
        let found = issues(outcome)
        #expect(found.count == 1, "expected one issue, got \(outcome)", sourceLocation: sourceLocation)
        guard let issue = found.first else { return }
        #expect(issue.code == code, "\(issue)", sourceLocation: sourceLocation)
        #expect(issue.field == field, "\(issue)", sourceLocation: sourceLocation)
        let words = Catalog(language: language).words(for: issue)
        if let message {
            #expect(words == message, sourceLocation: sourceLocation)
        }
        #expect(!words.isEmpty, sourceLocation: sourceLocation)
    }

    static func choice(_ text: String, _ value: String, exclusive: Bool? = nil, other: OtherOption? = nil) -> TextChoice {
        TextChoice(text: LocalizedText(text), value: .string(value), exclusive: exclusive, other: other)
    }

    static let shown = DontKnowOption(show: true)
}

private typealias Kit = AnswerTestKit

// MARK: - Numeric

@Suite("AnswerParser: numeric")
struct AnswerParserNumericTests {
    static let age = AnswerFormat.numeric(NumericFormat(style: .integer, unit: "years", minimum: 0, maximum: 120))
    static let dose = AnswerFormat.numeric(NumericFormat(style: .decimal, unit: "mg", minimum: 0.5, maximum: 2.5, maximumFractionDigits: 2))

    @Test("integer style: inside, on and just outside the bounds",
          arguments: [("0", 0.0), ("1", 1), ("119", 119), ("120", 120), (" 42 ", 42), ("+7", 7), ("5.0", 5), ("5.000", 5), ("1,00", nil)] as [(String, Double?)])
    func integerAccepted(raw: String, expected: Double?) {
        let outcome = Kit.parse(Self.age, ["q": raw])
        if let expected {
            #expect(Kit.numeric(outcome) == expected)
        } else {
            // "1,00" is not a well-formed group in English.
            Kit.expectIssue(outcome, .notANumber, field: "q")
        }
    }

    @Test("integer style refuses values outside [min, max]", arguments: ["-1", "121", "120.5", "-0.5", "1000"])
    func integerOutOfRange(raw: String) {
        let outcome = Kit.parse(Self.age, ["q": raw])
        let code: AnswerIssue.Code = raw.contains(".") ? .notAWholeNumber : .outOfRange
        Kit.expectIssue(outcome, code, field: "q")
    }

    @Test func integerRangeMessageNamesBoundsAndUnit() {
        Kit.expectIssue(Kit.parse(Self.age, ["q": "121"]), .outOfRange, field: "q", message: "Enter a number between 0 and 120 years")
        Kit.expectIssue(Kit.parse(Self.age, ["q": "-1"]), .outOfRange, field: "q", message: "Enter a number between 0 and 120 years")
    }

    @Test("integer style refuses fractions", arguments: ["5.5", "5.01", "0.1", "119.9"])
    func integerRefusesFractions(raw: String) {
        Kit.expectIssue(Kit.parse(Self.age, ["q": raw]), .notAWholeNumber, field: "q", message: "Enter a whole number, like 12")
    }

    @Test("garbage is not a number", arguments: ["abc", "12abc", "1e3", "0x10", "--5", "5-", "1.2.3", ".", "-", "½", "NaN", "inf"])
    func integerGarbage(raw: String) {
        Kit.expectIssue(Kit.parse(Self.age, ["q": raw]), .notANumber, field: "q", message: "Enter a whole number, like 12")
    }

    @Test("blank input is no answer", arguments: ["", "   ", "\n\t"])
    func blankIsEmpty(raw: String) {
        #expect(Kit.isEmpty(Kit.parse(Self.age, ["q": raw])))
        #expect(Kit.isEmpty(Kit.parse(Self.age, [:])))
    }

    @Test("decimal style bounds and fraction digits",
          arguments: [
              ("0.5", 0.5, nil), ("0.50", 0.5, nil), ("2.5", 2.5, nil), ("2.50", 2.5, nil), ("1.25", 1.25, nil), ("1.2500", 1.25, nil),
              ("0.49", nil, AnswerIssue.Code.outOfRange), ("2.51", nil, .outOfRange), ("0", nil, .outOfRange), ("3", nil, .outOfRange),
              ("1.255", nil, .tooManyFractionDigits), ("1.2550", nil, .tooManyFractionDigits), ("0.499", nil, .tooManyFractionDigits),
          ] as [(String, Double?, AnswerIssue.Code?)])
    func decimal(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.dose, ["q": raw])
        if let expected { #expect(Kit.numeric(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "q") }
    }

    @Test func decimalMessages() {
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "1.255"]), .tooManyFractionDigits, field: "q",
                        message: "Enter a number with no more than 2 decimal places")
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "3"]), .outOfRange, field: "q", message: "Enter a number between 0.5 and 2.5 mg")
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "many"]), .notANumber, field: "q", message: "Enter a number, like 12 or 3.5")
        // The example follows the participant's decimal separator.
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "viel"], language: "de"), .notANumber, field: "q",
                        message: "Enter a number, like 12 or 3,5", language: "de")
        let one = AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: 1))
        Kit.expectIssue(Kit.parse(one, ["q": "1.25"]), .tooManyFractionDigits, field: "q",
                        message: "Enter a number with no more than 1 decimal place")
    }

    @Test func decimalWithZeroFractionDigitsWantsWholeNumbers() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: 0))
        #expect(Kit.numeric(Kit.parse(format, ["q": "3.0"])) == 3)
        Kit.expectIssue(Kit.parse(format, ["q": "3.5"]), .tooManyFractionDigits, field: "q", message: "Enter a whole number, like 12")
    }

    @Test func decimalWithoutFractionLimitKeepsEveryDigit() {
        let format = AnswerFormat.numeric(NumericFormat())
        #expect(Kit.numeric(Kit.parse(format, ["q": "3.14159265"])) == 3.14159265)
        #expect(Kit.numeric(Kit.parse(format, ["q": "-1 000 000.5"])) == -1_000_000.5)
    }

    @Test func decimalCommaLanguages() {
        #expect(Kit.numeric(Kit.parse(Self.dose, ["q": "1,25"], language: "de")) == 1.25)
        #expect(Kit.numeric(Kit.parse(Self.dose, ["q": "1,25"], language: "fr-FR")) == 1.25)
        // A point typed in a comma language is taken as a decimal point too.
        #expect(Kit.numeric(Kit.parse(Self.dose, ["q": "1.25"], language: "de")) == 1.25)
        // "1,5" in English is neither a decimal nor a group.
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "1,5"], language: "en"), .notANumber, field: "q")
        // The fraction-digit rule applies after a comma too.
        Kit.expectIssue(Kit.parse(Self.dose, ["q": "1,255"], language: "de"), .tooManyFractionDigits, field: "q")
    }

    @Test func oneSidedBoundsMessages() {
        let atLeast = AnswerFormat.numeric(NumericFormat(style: .integer, unit: "kg", minimum: 18))
        #expect(Kit.numeric(Kit.parse(atLeast, ["q": "18"])) == 18)
        #expect(Kit.numeric(Kit.parse(atLeast, ["q": "1000000"])) == 1_000_000)
        Kit.expectIssue(Kit.parse(atLeast, ["q": "17"]), .outOfRange, field: "q", message: "Enter a number that is 18 kg or more")
        let atMost = AnswerFormat.numeric(NumericFormat(style: .decimal, maximum: 10))
        #expect(Kit.numeric(Kit.parse(atMost, ["q": "10"])) == 10)
        #expect(Kit.numeric(Kit.parse(atMost, ["q": "-1000"])) == -1000)
        Kit.expectIssue(Kit.parse(atMost, ["q": "10.1"]), .outOfRange, field: "q", message: "Enter a number that is 10 or less")
    }

    @Test func displayUnitIsShownInMessages() {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer, unit: "kg", displayUnit: "kilograms", minimum: 1, maximum: 5))
        Kit.expectIssue(Kit.parse(format, ["q": "6"]), .outOfRange, field: "q", message: "Enter a number between 1 and 5 kilograms")
    }

    @Test func equalBoundsAndNegativeRanges() {
        let exact = AnswerFormat.numeric(NumericFormat(style: .decimal, minimum: 5, maximum: 5))
        #expect(Kit.numeric(Kit.parse(exact, ["q": "5"])) == 5)
        Kit.expectIssue(Kit.parse(exact, ["q": "4.9"]), .outOfRange, field: "q")
        Kit.expectIssue(Kit.parse(exact, ["q": "5.1"]), .outOfRange, field: "q")
        let cold = AnswerFormat.numeric(NumericFormat(style: .integer, minimum: -10, maximum: -1))
        #expect(Kit.numeric(Kit.parse(cold, ["q": "\u{2212}10"])) == -10)
        #expect(Kit.numeric(Kit.parse(cold, ["q": "-1"])) == -1)
        Kit.expectIssue(Kit.parse(cold, ["q": "0"]), .outOfRange, field: "q")
        Kit.expectIssue(Kit.parse(cold, ["q": "-11"]), .outOfRange, field: "q")
    }

    @Test func fractionalBoundsAreExact() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal, minimum: 0.1, maximum: 0.3, maximumFractionDigits: 2))
        #expect(Kit.numeric(Kit.parse(format, ["q": "0.1"])) == 0.1)
        #expect(Kit.numeric(Kit.parse(format, ["q": "0.3"])) == 0.3)
        Kit.expectIssue(Kit.parse(format, ["q": "0.09"]), .outOfRange, field: "q")
        Kit.expectIssue(Kit.parse(format, ["q": "0.31"]), .outOfRange, field: "q")
    }
}

// MARK: - Scales

@Suite("AnswerParser: scales")
struct AnswerParserScaleTests {
    static let even = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, step: 2))

    @Test("discrete scale: on grid, off grid and out of range",
          arguments: [
              ("0", 0.0, nil), ("2", 2, nil), ("10", 10, nil), ("4.0", 4, nil), (" 6 ", 6, nil),
              ("1", nil, AnswerIssue.Code.notAChoice), ("9", nil, .notAChoice), ("4.5", nil, .notAChoice), ("x", nil, .notAChoice),
              ("-2", nil, .outOfRange), ("12", nil, .outOfRange), ("-1", nil, .outOfRange), ("11", nil, .outOfRange),
          ] as [(String, Double?, AnswerIssue.Code?)])
    func discrete(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.even, ["q": raw])
        if let expected { #expect(Kit.scale(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "q") }
    }

    @Test func discreteMessages() {
        Kit.expectIssue(Kit.parse(Self.even, ["q": "12"]), .outOfRange, field: "q", message: "Select a value from 0 to 10")
        Kit.expectIssue(Kit.parse(Self.even, ["q": "3"]), .notAChoice, field: "q", message: "Select one of the options")
    }

    @Test func negativeDiscreteScale() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: -5, maximum: 5, step: 5))
        #expect(Kit.scale(Kit.parse(format, ["q": "-5"])) == -5)
        #expect(Kit.scale(Kit.parse(format, ["q": "\u{2212}5"])) == -5)
        #expect(Kit.scale(Kit.parse(format, ["q": "0"])) == 0)
        #expect(Kit.scale(Kit.parse(format, ["q": "5"])) == 5)
        Kit.expectIssue(Kit.parse(format, ["q": "-4"]), .notAChoice, field: "q")
        Kit.expectIssue(Kit.parse(format, ["q": "-6"]), .outOfRange, field: "q")
    }

    /// A number too large for an Int must be refused, not crash the server.
    @Test func hugeDiscreteValueIsRefusedWithoutCrashing() async {
        await #expect(processExitsWith: .success) {
            let outcome = AnswerParser.parse(.scale(ScaleFormat(minimum: 0, maximum: 10)), name: "q",
                                             fields: FormFields(["q": ["99999999999999999999"]]), context: AnswerContext(language: "en"))
            guard case .invalid(let issues) = outcome, issues.first?.code == .outOfRange else { exit(1) }
            exit(0)
        }
    }

    static let tenths = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 10, maximumFractionDigits: 1))

    @Test("continuous scale: bounds and fraction digits",
          arguments: [
              ("0", 0.0, nil), ("10", 10, nil), ("10.0", 10, nil), ("9.9", 9.9, nil), ("5.20", 5.2, nil), ("0.1", 0.1, nil),
              ("10.1", nil, AnswerIssue.Code.outOfRange), ("-0.1", nil, .outOfRange), ("11", nil, .outOfRange),
              ("5.25", nil, .tooManyFractionDigits), ("x", nil, .notANumber),
          ] as [(String, Double?, AnswerIssue.Code?)])
    func continuous(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.tenths, ["q": raw])
        if let expected { #expect(Kit.scale(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "q") }
    }

    @Test func continuousMessages() {
        Kit.expectIssue(Kit.parse(Self.tenths, ["q": "10.1"]), .outOfRange, field: "q", message: "Enter a number between 0 and 10")
        Kit.expectIssue(Kit.parse(Self.tenths, ["q": "x"]), .notANumber, field: "q", message: "Enter a number between 0 and 10")
        Kit.expectIssue(Kit.parse(Self.tenths, ["q": "5.25"]), .tooManyFractionDigits, field: "q",
                        message: "Enter a number with no more than 1 decimal place")
        let whole = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 10))
        Kit.expectIssue(Kit.parse(whole, ["q": "5.5"]), .tooManyFractionDigits, field: "q", message: "Enter a whole number, like 12")
        #expect(Kit.scale(Kit.parse(whole, ["q": "5"])) == 5)
    }

    @Test func continuousFractionDigitsAreClampedToFour() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 6))
        #expect(Kit.scale(Kit.parse(format, ["q": "0.1234"])) == 0.1234)
        Kit.expectIssue(Kit.parse(format, ["q": "0.12345"]), .tooManyFractionDigits, field: "q",
                        message: "Enter a number with no more than 4 decimal places")
    }

    @Test func continuousDecimalComma() {
        #expect(Kit.scale(Kit.parse(Self.tenths, ["q": "7,5"], language: "de")) == 7.5)
        Kit.expectIssue(Kit.parse(Self.tenths, ["q": "7,5"], language: "en"), .notANumber, field: "q")
    }

    static let percent = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, numberStyle: .percent))

    @Test("percent style reads percentages and records fractions",
          arguments: [("0", 0.0), ("50", 0.5), ("50%", 0.5), ("50 %", 0.5), ("100", 1), ("100%", 1), ("1", 0.01)] as [(String, Double)])
    func percentAccepted(raw: String, expected: Double) {
        #expect(Kit.scale(Kit.parse(Self.percent, ["q": raw])) == expected)
    }

    @Test func percentBoundsAndDigits() {
        Kit.expectIssue(Kit.parse(Self.percent, ["q": "101"]), .outOfRange, field: "q", message: "Enter a number between 0 and 100%")
        Kit.expectIssue(Kit.parse(Self.percent, ["q": "-1"]), .outOfRange, field: "q")
        Kit.expectIssue(Kit.parse(Self.percent, ["q": "50.5"]), .tooManyFractionDigits, field: "q")
        Kit.expectIssue(Kit.parse(Self.percent, ["q": "%"]), .notANumber, field: "q")
        let tenths = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 1, numberStyle: .percent))
        #expect(Kit.scale(Kit.parse(tenths, ["q": "33.3%"])) == 0.333)
        #expect(Kit.scale(Kit.parse(tenths, ["q": "100.0"])) == 1)
        Kit.expectIssue(Kit.parse(tenths, ["q": "100.1"]), .outOfRange, field: "q")
        Kit.expectIssue(Kit.parse(tenths, ["q": "33.33"]), .tooManyFractionDigits, field: "q")
    }

    /// The bounds are percentages of fractions the author wrote: 0.07 is 7 %, 0.57 is 57 %.
    @Test func percentBoundsAreInclusiveDespiteBinaryFractions() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0.07, maximum: 0.57, numberStyle: .percent))
        #expect(Kit.scale(Kit.parse(format, ["q": "7"])) == 0.07)
        #expect(Kit.scale(Kit.parse(format, ["q": "57"])) == 0.57)
        Kit.expectIssue(Kit.parse(format, ["q": "6"]), .outOfRange, field: "q", message: "Enter a number between 7 and 57%")
        Kit.expectIssue(Kit.parse(format, ["q": "58"]), .outOfRange, field: "q", message: "Enter a number between 7 and 57%")
    }

    static let feeling = AnswerFormat.textScale(TextScaleFormat(choices: [
        Kit.choice("Poor", "poor"), Kit.choice("Fair", "fair"), Kit.choice("Good", "good"),
    ]))

    @Test func textScale() {
        #expect(Kit.answer(Kit.parse(Self.feeling, ["q": "fair"])) == .choices([.string("fair")]))
        #expect(Kit.answer(Kit.parse(Self.feeling, ["q": "good"])) == .choices([.string("good")]))
        Kit.expectIssue(Kit.parse(Self.feeling, ["q": "great"]), .notAChoice, field: "q", message: "Select one of the options")
        Kit.expectIssue(Kit.parse(Self.feeling, pairs: [("q", "poor"), ("q", "good")]), .conflictingValues, field: "q",
                        message: "We received two different answers here; choose one and continue")
        #expect(Kit.isEmpty(Kit.parse(Self.feeling, ["q": ""])))
    }

    @Test func textScaleWithNumberValues() {
        let format = AnswerFormat.textScale(TextScaleFormat(choices: [
            TextChoice(text: "Low", value: .number(1)), TextChoice(text: "High", value: .number(2.5)),
        ]))
        #expect(Kit.answer(Kit.parse(format, ["q": "1"])) == .choices([.number(1)]))
        #expect(Kit.answer(Kit.parse(format, ["q": "2.5"])) == .choices([.number(2.5)]))
        Kit.expectIssue(Kit.parse(format, ["q": "3"]), .notAChoice, field: "q")
    }
}

// MARK: - Text and email

@Suite("AnswerParser: text and email")
struct AnswerParserTextTests {
    static let five = AnswerFormat.text(TextFormat(maximumLength: 5))

    @Test("maximumLength counts UTF-16 units after CRLF becomes LF",
          arguments: [
              ("abcde", "abcde"), ("  abcde  ", "abcde"), ("ab\r\ncd", "ab\ncd"), ("abc😀", "abc😀"), ("\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}", "ééééé"),
              ("a", "a"),
          ] as [(String, String)])
    func withinLimit(raw: String, recorded: String) {
        #expect(Kit.answer(Kit.parse(Self.five, ["q": raw])) == .text(recorded))
    }

    @Test("maximumLength refuses one more unit", arguments: ["abcdef", "ab\r\ncde", "abcd😀", "e\u{301}e\u{301}e\u{301}", "ab\ncde"])
    func overLimit(raw: String) {
        Kit.expectIssue(Kit.parse(Self.five, ["q": raw]), .tooLong, field: "q", message: "Answer must be 5 characters or fewer")
    }

    @Test func zeroLengthMeansNoLimit() {
        let format = AnswerFormat.text(TextFormat(maximumLength: 0))
        let long = String(repeating: "x", count: 10_000)
        #expect(Kit.answer(Kit.parse(format, ["q": long])) == .text(long))
    }

    @Test("blank text is no answer", arguments: ["", "   ", "\r\n", "\t \n"])
    func blank(raw: String) {
        #expect(Kit.isEmpty(Kit.parse(Self.five, ["q": raw])))
    }

    @Test func multipleLinesKeepInnerLineBreaks() {
        let format = AnswerFormat.text(TextFormat(multipleLines: true))
        #expect(Kit.answer(Kit.parse(format, ["q": "\r\nline one\r\nline two\r\n"])) == .text("line one\nline two"))
    }

    static let digit = AnswerFormat.text(TextFormat(validationRegularExpression: "[0-9]", invalidMessage: "“%@” needs a digit"))
    static let code = AnswerFormat.text(TextFormat(validationRegularExpression: "^[A-Z]{2}[0-9]{4}$", invalidMessage: "Enter a code like AB1234"))

    @Test("an unanchored expression needs only a partial match", arguments: ["1", "abc1", "1abc", "a1b"])
    func partialMatch(raw: String) {
        #expect(Kit.answer(Kit.parse(Self.digit, ["q": raw])) == .text(raw))
    }

    @Test func invalidMessageQuotesTheInput() {
        Kit.expectIssue(Kit.parse(Self.digit, ["q": "  abc  "]), .pattern, field: "q", message: "“abc” needs a digit")
    }

    @Test("an anchored expression needs a whole match",
          arguments: [("AB1234", true), ("xAB1234", false), ("AB12345", false), ("ab1234", false), (" AB1234 ", true)] as [(String, Bool)])
    func anchored(raw: String, valid: Bool) {
        let outcome = Kit.parse(Self.code, ["q": raw])
        if valid {
            #expect(Kit.answer(outcome) == .text("AB1234"))
        } else {
            Kit.expectIssue(outcome, .pattern, field: "q", message: "Enter a code like AB1234")
        }
    }

    @Test func lengthIsCheckedBeforeThePattern() {
        let format = AnswerFormat.text(TextFormat(maximumLength: 3, validationRegularExpression: "^[0-9]+$", invalidMessage: "Digits only"))
        Kit.expectIssue(Kit.parse(format, ["q": "abcd"]), .tooLong, field: "q")
        Kit.expectIssue(Kit.parse(format, ["q": "abc"]), .pattern, field: "q", message: "Digits only")
        #expect(Kit.answer(Kit.parse(format, ["q": "123"])) == .text("123"))
    }

    @Test func invalidMessageFollowsTheParticipantsLanguage() {
        let message = LocalizedText(translations: [("en", "Enter digits, not “%@”"), ("es", "Escriba cifras, no «%@»")])
        let format = AnswerFormat.text(TextFormat(validationRegularExpression: "^[0-9]+$", invalidMessage: message))
        Kit.expectIssue(Kit.parse(format, ["q": "abc"], language: "en"), .pattern, field: "q", message: "Enter digits, not “abc”")
        Kit.expectIssue(Kit.parse(format, ["q": "abc"], language: "es"), .pattern, field: "q", message: "Escriba cifras, no «abc»", language: "es")
    }

    static let email = AnswerFormat.email(EmailFormat())

    @Test("email addresses ResearchKit's expression accepts",
          arguments: ["name@example.com", "first.last+tag@sub.example.co.uk", "a_b%c-d@example.museum", "X@Y.IO", "  name@example.com  "])
    func emailAccepted(raw: String) {
        #expect(Kit.answer(Kit.parse(Self.email, ["q": raw])) == .text(raw.trimmingCharacters(in: .whitespaces)))
    }

    @Test("email addresses it refuses",
          arguments: ["name", "name@example", "name@@example.com", "na me@example.com", "name@example.c", "name@example.abcdefg",
                      "@example.com", "name@.com.", "name@example.com\nx", "name@exam_ple.com"])
    func emailRefused(raw: String) {
        Kit.expectIssue(Kit.parse(Self.email, ["q": raw]), .email, field: "q",
                        message: "Enter an email address in the correct format, like name@example.com")
    }
}

// MARK: - Dates and times

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

@Suite("AnswerParser: time of day and time interval")
struct AnswerParserTimeTests {
    static let any = AnswerFormat.timeOfDay(TimeOfDayFormat())

    @Test("lenient time forms",
          arguments: [("9:30", 9, 30), ("09:30", 9, 30), ("09.30", 9, 30), ("0930", 9, 30), ("9:30pm", 21, 30), ("9:30 PM", 21, 30),
                      ("9.30p.m.", 21, 30), ("9pm", 21, 0), ("930pm", 21, 30), ("9 am", 9, 0), ("21h30", 21, 30), ("21h", 21, 0),
                      ("12am", 0, 0), ("12:15 a.m.", 0, 15), ("12pm", 12, 0), ("12:30pm", 12, 30), ("0:00", 0, 0), ("23:59", 23, 59),
                      ("9", 9, 0), ("2359", 23, 59), (" 7:05 ", 7, 5)] as [(String, Int, Int)])
    func lenient(raw: String, hour: Int, minute: Int) {
        #expect(Kit.answer(Kit.parse(Self.any, ["q": raw])) == .timeOfDay(TimeOfDay(hour: hour, minute: minute)!))
    }

    @Test("impossible times", arguments: ["24:00", "23:60", "13pm", "0pm", "0am", "9:5", "930", "12345", "abc", "9:30:00", "-1:00", "9::30"])
    func impossible(raw: String) {
        Kit.expectIssue(Kit.parse(Self.any, ["q": raw]), .invalidDate, field: "q", message: "Enter a time, like 14:30")
    }

    @Test("minute interval", arguments: [(15, "9:45", true), (15, "9:00", true), (15, "9:50", false), (15, "23:59", false),
                                         (5, "9:55", true), (5, "9:56", false), (30, "9:30pm", true), (30, "9:15pm", false)] as [(Int, String, Bool)])
    func minuteInterval(interval: Int, raw: String, valid: Bool) {
        let outcome = Kit.parse(.timeOfDay(TimeOfDayFormat(minuteInterval: interval)), ["q": raw])
        if valid {
            #expect(Kit.answer(outcome) != nil)
        } else {
            Kit.expectIssue(outcome, .notOnInterval, field: "q")
        }
    }

    @Test func minuteIntervalMessages() {
        Kit.expectIssue(Kit.parse(.timeOfDay(TimeOfDayFormat(minuteInterval: 15)), ["q": "9:50"]), .notOnInterval, field: "q",
                        message: "Enter a time in steps of 15 minutes, like 14:30")
        Kit.expectIssue(Kit.parse(.timeOfDay(TimeOfDayFormat(minuteInterval: 5)), ["q": "9:51"]), .notOnInterval, field: "q",
                        message: "Enter a time in steps of 5 minutes, like 14:10")
    }

    static let sleep = AnswerFormat.timeInterval(TimeIntervalFormat(step: 15))

    static func interval(_ hours: String?, _ minutes: String?) -> [String: String] {
        var fields: [String: String] = [:]
        if let hours { fields["bed.hours"] = hours }
        if let minutes { fields["bed.minutes"] = minutes }
        return fields
    }

    @Test("hours and minutes become seconds",
          arguments: [("1", "30", 5400.0), ("2", nil, 7200), (nil, "45", 2700), ("0", "0", 0), ("23", "45", 85_500), ("07", "00", 25_200),
                      (" 1 ", " 15 ", 4500)] as [(String?, String?, Double)])
    func intervalAccepted(hours: String?, minutes: String?, seconds: Double) {
        #expect(Kit.answer(Kit.parse(Self.sleep, Self.interval(hours, minutes), name: "bed")) == .timeInterval(seconds))
    }

    @Test("hours and minutes out of range",
          arguments: [("24", "0", "bed.hours", "Enter hours from 0 to 23"), ("-1", "0", "bed.hours", "Enter hours from 0 to 23"),
                      ("1.5", nil, "bed.hours", "Enter hours from 0 to 23"), ("x", nil, "bed.hours", "Enter hours from 0 to 23"),
                      ("1", "60", "bed.minutes", "Enter minutes from 0 to 59"), (nil, "-15", "bed.minutes", "Enter minutes from 0 to 59"),
                      (nil, "abc", "bed.minutes", "Enter minutes from 0 to 59")] as [(String?, String?, String, String)])
    func intervalOutOfRange(hours: String?, minutes: String?, field: String, message: String) {
        Kit.expectIssue(Kit.parse(Self.sleep, Self.interval(hours, minutes), name: "bed"), .outOfRange, field: field, message: message)
    }

    @Test func bothPartsWrongGivesTwoIssues() {
        let found = Kit.issues(Kit.parse(Self.sleep, Self.interval("25", "61"), name: "bed"))
        #expect(found.map(\.field) == ["bed.hours", "bed.minutes"])
        #expect(found.allSatisfy { $0.code == .outOfRange })
    }

    @Test func intervalStep() {
        Kit.expectIssue(Kit.parse(Self.sleep, Self.interval("1", "20"), name: "bed"), .notOnInterval, field: "bed.minutes",
                        message: "Enter minutes in steps of 15, like 30")
        let half = AnswerFormat.timeInterval(TimeIntervalFormat(step: 30))
        Kit.expectIssue(Kit.parse(half, Self.interval("1", "15"), name: "bed"), .notOnInterval, field: "bed.minutes",
                        message: "Enter minutes in steps of 30, like 30")
        #expect(Kit.answer(Kit.parse(half, Self.interval("1", "30"), name: "bed")) == .timeInterval(5400))
        // Step 1 (the default) takes every minute.
        #expect(Kit.answer(Kit.parse(.timeInterval(TimeIntervalFormat()), Self.interval("0", "59"), name: "bed")) == .timeInterval(3540))
    }

    @Test func blankIntervalIsEmpty() {
        #expect(Kit.isEmpty(Kit.parse(Self.sleep, Self.interval(" ", ""), name: "bed")))
        #expect(Kit.isEmpty(Kit.parse(Self.sleep, [:], name: "bed")))
    }
}

// MARK: - Height, weight, age

@Suite("AnswerParser: height, weight and age")
struct AnswerParserMeasurementTests {
    static let metricHeight = AnswerFormat.height(HeightFormat(measurementSystem: .metric))
    static let uscHeight = AnswerFormat.height(HeightFormat(measurementSystem: .USC))

    @Test("metric height", arguments: [("170", 170.0, nil), ("300", 300, nil), ("1", 1, nil), ("170.5", 170.5, nil), ("170,5", nil, nil),
                                       ("300.1", nil, AnswerIssue.Code.outOfRange), ("0", nil, .outOfRange), ("-170", nil, .outOfRange),
                                       ("170.55", nil, .tooManyFractionDigits), ("tall", nil, .notANumber)] as [(String, Double?, AnswerIssue.Code?)])
    func metricHeight(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.metricHeight, ["h": raw], name: "h")
        if let expected { #expect(Kit.numeric(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "h") }
        if expected == nil, code == nil { Kit.expectIssue(outcome, .notANumber, field: "h") }
    }

    @Test func metricHeightMessages() {
        Kit.expectIssue(Kit.parse(Self.metricHeight, ["h": "301"], name: "h"), .outOfRange, field: "h",
                        message: "Enter a height between 1 and 300 cm")
        Kit.expectIssue(Kit.parse(Self.metricHeight, ["h": "tall"], name: "h"), .notANumber, field: "h",
                        message: "Enter a height in centimetres, like 170")
        #expect(Kit.numeric(Kit.parse(Self.metricHeight, ["h": "170,5"], name: "h", language: "de")) == 170.5)
    }

    /// The message promises 1 to 300 cm, so a height under 1 cm must be refused like one over 300.
    @Test("metric height below the promised 1 cm", arguments: ["0.5", "0.9", "0"])
    func metricHeightBelowOne(raw: String) {
        Kit.expectIssue(Kit.parse(Self.metricHeight, ["h": raw], name: "h"), .outOfRange, field: "h",
                        message: "Enter a height between 1 and 300 cm")
    }

    static func feet(_ feet: String?, _ inches: String?) -> [String: String] {
        var fields: [String: String] = [:]
        if let feet { fields["h.feet"] = feet }
        if let inches { fields["h.inches"] = inches }
        return fields
    }

    @Test("feet and inches become centimetres rounded to 2 decimals",
          arguments: [("5", "10", 177.8), ("6", nil, 182.88), (nil, "7", 17.78), ("0", "1", 2.54), ("9", "11", 302.26),
                      ("5", "11.5", 181.61), ("5", "0", 152.4), ("5.0", "3", 160.02), ("4", "0.1", 122.17)] as [(String?, String?, Double)])
    func uscHeight(feet: String?, inches: String?, cm: Double) {
        #expect(Kit.numeric(Kit.parse(Self.uscHeight, Self.feet(feet, inches), name: "h")) == cm)
    }

    @Test("feet and inches out of range",
          arguments: [("10", "0", "h.feet"), ("-1", "0", "h.feet"), ("5.5", "0", "h.feet"), ("x", "0", "h.feet"),
                      ("5", "12", "h.inches"), ("5", "-1", "h.inches"), ("5", "11.55", "h.inches"), ("5", "inch", "h.inches")]
            as [(String, String, String)])
    func uscHeightRefused(feet: String, inches: String, field: String) {
        Kit.expectIssue(Kit.parse(Self.uscHeight, Self.feet(feet, inches), name: "h"), .outOfRange, field: field)
    }

    @Test func uscHeightMessages() {
        Kit.expectIssue(Kit.parse(Self.uscHeight, Self.feet("10", "0"), name: "h"), .outOfRange, field: "h.feet",
                        message: "Enter feet as a whole number from 0 to 9")
        Kit.expectIssue(Kit.parse(Self.uscHeight, Self.feet("5", "12"), name: "h"), .outOfRange, field: "h.inches",
                        message: "Enter inches from 0 to 11")
        Kit.expectIssue(Kit.parse(Self.uscHeight, Self.feet("0", "0"), name: "h"), .outOfRange, field: "h.feet",
                        message: "Enter a height greater than 0")
        let both = Kit.issues(Kit.parse(Self.uscHeight, Self.feet("12", "13"), name: "h"))
        #expect(both.map(\.field) == ["h.feet", "h.inches"])
        #expect(Kit.isEmpty(Kit.parse(Self.uscHeight, Self.feet(" ", ""), name: "h")))
    }

    @Test("local height follows the participant's region",
          arguments: [("en-US", true), ("es-US", true), ("en-LR", true), ("my-MM", true), ("en", false), ("en-GB", false), ("fr-FR", false),
                      (nil, false)] as [(String?, Bool)])
    func localHeight(language: String?, usc: Bool) {
        let format = AnswerFormat.height(HeightFormat())
        let fields = ["h": "170", "h.feet": "5", "h.inches": "10"]
        #expect(Kit.numeric(Kit.parse(format, fields, name: "h", language: language)) == (usc ? 177.8 : 170))
    }

    @Test("metric weight precision",
          arguments: [(NumericPrecision?.none, "70.5", 70.5, nil), (nil, "70.55", nil, AnswerIssue.Code.tooManyFractionDigits),
                      (.low, "70", 70, nil), (.low, "70.0", 70, nil), (.low, "70.5", nil, .tooManyFractionDigits),
                      (.default, "70.5", 70.5, nil), (.default, "70.50", 70.5, nil), (.default, "70.25", nil, .tooManyFractionDigits),
                      (.high, "70.25", 70.25, nil), (.high, "70.255", nil, .tooManyFractionDigits),
                      (.high, "0", 0, nil), (.high, "657", 657, nil), (.high, "657.01", nil, .outOfRange), (.high, "-0.01", nil, .outOfRange),
                      (.high, "heavy", nil, .notANumber)] as [(NumericPrecision?, String, Double?, AnswerIssue.Code?)])
    func metricWeight(precision: NumericPrecision?, raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let format = AnswerFormat.weight(WeightFormat(measurementSystem: .metric, numericPrecision: precision))
        let outcome = Kit.parse(format, ["w": raw], name: "w")
        if let expected { #expect(Kit.numeric(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "w") }
    }

    @Test func weightMessages() {
        let metric = AnswerFormat.weight(WeightFormat(measurementSystem: .metric, numericPrecision: .low, minimumValue: 40, maximumValue: 200))
        #expect(Kit.numeric(Kit.parse(metric, ["w": "40"], name: "w")) == 40)
        #expect(Kit.numeric(Kit.parse(metric, ["w": "200"], name: "w")) == 200)
        Kit.expectIssue(Kit.parse(metric, ["w": "39"], name: "w"), .outOfRange, field: "w", message: "Enter a weight between 40 and 200 kg")
        Kit.expectIssue(Kit.parse(metric, ["w": "201"], name: "w"), .outOfRange, field: "w", message: "Enter a weight between 40 and 200 kg")
        Kit.expectIssue(Kit.parse(metric, ["w": "70.5"], name: "w"), .tooManyFractionDigits, field: "w",
                        message: "Enter a whole number, like 12")
        Kit.expectIssue(Kit.parse(metric, ["w": "heavy"], name: "w"), .notANumber, field: "w",
                        message: "Enter a weight in kilograms, like 70")
        let pounds = AnswerFormat.weight(WeightFormat(measurementSystem: .USC))
        Kit.expectIssue(Kit.parse(pounds, ["w": "1450.1"], name: "w"), .outOfRange, field: "w", message: "Enter a weight between 0 and 1450 lb")
        Kit.expectIssue(Kit.parse(pounds, ["w": "heavy"], name: "w"), .notANumber, field: "w", message: "Enter a weight in pounds, like 70")
    }

    @Test("pounds become kilograms rounded to 2 decimals",
          arguments: [("150", 68.04), ("1450", 657.71), ("0", 0), ("1", 0.45), ("150.5", 68.27), ("220.4", 99.97)] as [(String, Double)])
    func uscWeight(raw: String, kg: Double) {
        let format = AnswerFormat.weight(WeightFormat(measurementSystem: .USC))
        #expect(Kit.numeric(Kit.parse(format, ["w": raw], name: "w")) == kg)
    }

    static let poundsAndOunces = AnswerFormat.weight(WeightFormat(measurementSystem: .USC, numericPrecision: .high))

    static func lbOz(_ pounds: String?, _ ounces: String?) -> [String: String] {
        var fields: [String: String] = [:]
        if let pounds { fields["w.pounds"] = pounds }
        if let ounces { fields["w.ounces"] = ounces }
        return fields
    }

    @Test("pounds and ounces become kilograms",
          arguments: [("150", "8", 68.27), ("150", nil, 68.04), (nil, "8", 0.23), ("0", "1", 0.03), ("150", "15", 68.46), ("150", "0", 68.04),
                      ("1450", "0", 657.71)] as [(String?, String?, Double)])
    func uscHighWeight(pounds: String?, ounces: String?, kg: Double) {
        #expect(Kit.numeric(Kit.parse(Self.poundsAndOunces, Self.lbOz(pounds, ounces), name: "w")) == kg)
    }

    @Test("pounds and ounces refused",
          arguments: [("150", "16", "w.ounces", AnswerIssue.Code.outOfRange), ("150", "-1", "w.ounces", .outOfRange),
                      ("150", "8.5", "w.ounces", .outOfRange), ("150.5", "0", "w.pounds", .notAWholeNumber),
                      ("-1", "0", "w.pounds", .notAWholeNumber), ("lots", "0", "w.pounds", .notAWholeNumber),
                      ("1450", "1", "w.pounds", .outOfRange), ("1451", nil, "w.pounds", .outOfRange)] as [(String, String?, String, AnswerIssue.Code)])
    func uscHighWeightRefused(pounds: String, ounces: String?, field: String, code: AnswerIssue.Code) {
        Kit.expectIssue(Kit.parse(Self.poundsAndOunces, Self.lbOz(pounds, ounces), name: "w"), code, field: field)
    }

    @Test func uscHighWeightMessages() {
        Kit.expectIssue(Kit.parse(Self.poundsAndOunces, Self.lbOz("150", "16"), name: "w"), .outOfRange, field: "w.ounces",
                        message: "Enter ounces from 0 to 15")
        Kit.expectIssue(Kit.parse(Self.poundsAndOunces, Self.lbOz("1451", "0"), name: "w"), .outOfRange, field: "w.pounds",
                        message: "Enter a weight between 0 and 1450 lb")
        #expect(Kit.isEmpty(Kit.parse(Self.poundsAndOunces, Self.lbOz("", " "), name: "w")))
        // High precision in metric is kilograms with two decimals, not pounds and ounces.
        let metricHigh = AnswerFormat.weight(WeightFormat(measurementSystem: .metric, numericPrecision: .high))
        #expect(Kit.numeric(Kit.parse(metricHigh, ["w": "70.25", "w.pounds": "150"], name: "w")) == 70.25)
    }

    @Test func localWeightFollowsRegion() {
        let format = AnswerFormat.weight(WeightFormat())
        #expect(Kit.numeric(Kit.parse(format, ["w": "150"], name: "w", language: "en-US")) == 68.04)
        #expect(Kit.numeric(Kit.parse(format, ["w": "150"], name: "w", language: "en-GB")) == 150)
    }

    static let adult = AnswerFormat.age(AgeFormat())

    @Test("age bounds (default 1 to 125)",
          arguments: [("1", 1.0, nil), ("125", 125, nil), ("42", 42, nil), ("42.0", 42, nil),
                      ("0", nil, AnswerIssue.Code.outOfRange), ("126", nil, .outOfRange), ("-1", nil, .outOfRange), ("-2", nil, .outOfRange),
                      ("42.5", nil, .notAWholeNumber), ("old", nil, .notAWholeNumber)] as [(String, Double?, AnswerIssue.Code?)])
    func age(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.adult, ["age": raw], name: "age")
        if let expected { #expect(Kit.numeric(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "age") }
    }

    @Test func ageMessagesAndCustomBounds() {
        let format = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65))
        Kit.expectIssue(Kit.parse(format, ["age": "17"], name: "age"), .outOfRange, field: "age", message: "Enter an age from 18 to 65")
        Kit.expectIssue(Kit.parse(format, ["age": "66"], name: "age"), .outOfRange, field: "age", message: "Enter an age from 18 to 65")
        #expect(Kit.numeric(Kit.parse(format, ["age": "18"], name: "age")) == 18)
        #expect(Kit.numeric(Kit.parse(format, ["age": "65"], name: "age")) == 65)
        Kit.expectIssue(Kit.parse(format, ["age": "30.5"], name: "age"), .notAWholeNumber, field: "age",
                        message: "Enter an age in whole years, like 42")
        let zero = AnswerFormat.age(AgeFormat(minimumAge: 0, maximumAge: 150))
        #expect(Kit.numeric(Kit.parse(zero, ["age": "0"], name: "age")) == 0)
        #expect(Kit.numeric(Kit.parse(zero, ["age": "150"], name: "age")) == 150)
    }

    @Test func ageSentinels() {
        let format = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65, treatMinAgeAsRange: true, treatMaxAgeAsRange: true))
        #expect(Kit.numeric(Kit.parse(format, ["age": "-1"], name: "age")) == Double(AgeFormat.minimumSentinel))
        #expect(Kit.numeric(Kit.parse(format, ["age": "-2"], name: "age")) == Double(AgeFormat.maximumSentinel))
        Kit.expectIssue(Kit.parse(format, ["age": "-3"], name: "age"), .outOfRange, field: "age")
        let onlyMin = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65, treatMinAgeAsRange: true))
        #expect(Kit.numeric(Kit.parse(onlyMin, ["age": "-1"], name: "age")) == -1)
        Kit.expectIssue(Kit.parse(onlyMin, ["age": "-2"], name: "age"), .outOfRange, field: "age")
    }

    @Test func ageUsesYearForResult() {
        let fixed = AnswerFormat.age(AgeFormat(useYearForResult: true, relativeYear: 2000))
        #expect(Kit.numeric(Kit.parse(fixed, ["age": "30"], name: "age")) == 1970)
        // Without relativeYear, the year of `now` in the participant's zone.
        let current = AnswerFormat.age(AgeFormat(useYearForResult: true))
        let newYearsEve = Kit.instant("2026-12-31T23:30:00Z")
        #expect(Kit.numeric(Kit.parse(current, ["age": "30"], name: "age", now: newYearsEve, zone: Kit.utc)) == 1996)
        #expect(Kit.numeric(Kit.parse(current, ["age": "30"], name: "age", now: newYearsEve, zone: Kit.auckland)) == 1997)
        // Sentinels stay sentinels; bounds are still checked on the age.
        let sentinel = AnswerFormat.age(AgeFormat(useYearForResult: true, treatMinAgeAsRange: true, relativeYear: 2000))
        #expect(Kit.numeric(Kit.parse(sentinel, ["age": "-1"], name: "age")) == -1)
        Kit.expectIssue(Kit.parse(fixed, ["age": "126"], name: "age"), .outOfRange, field: "age")
    }

    /// A number too large for an Int must be refused, not crash the server.
    @Test func hugeAgeIsRefusedWithoutCrashing() async {
        await #expect(processExitsWith: .success) {
            let outcome = AnswerParser.parse(.age(AgeFormat()), name: "age",
                                             fields: FormFields(["age": ["99999999999999999999"]]), context: AnswerContext(language: "en"))
            guard case .invalid(let issues) = outcome, issues.first?.code == .outOfRange else { exit(1) }
            exit(0)
        }
    }
}

// MARK: - Location, SES, boolean

@Suite("AnswerParser: location, SES and boolean")
struct AnswerParserSimpleTests {
    static let place = AnswerFormat.location(LocationFormat())

    @Test func locationWithoutCoordinates() {
        #expect(Kit.answer(Kit.parse(Self.place, ["q": "  10 Downing Street, London "])) == .location(LocationAnswer(userInput: "10 Downing Street, London")))
        #expect(Kit.isEmpty(Kit.parse(Self.place, ["q": " "])))
        #expect(Kit.isEmpty(Kit.parse(Self.place, ["q.latitude": "51.5", "q.longitude": "-0.12"])))
    }

    @Test("location coordinates are kept only when both are valid",
          arguments: [("51.5034", "-0.1276", true), ("90", "180", true), ("-90", "-180", true), ("90.1", "0", false), ("0", "180.5", false),
                      ("51.5", nil, false), (nil, "-0.12", false), ("north", "west", false), ("nan", "0", false)] as [(String?, String?, Bool)])
    func locationCoordinates(latitude: String?, longitude: String?, kept: Bool) {
        var fields = ["q": "Somewhere"]
        if let latitude { fields["q.latitude"] = latitude }
        if let longitude { fields["q.longitude"] = longitude }
        guard case .answer(.location(let location)) = Kit.parse(Self.place, fields) else {
            Issue.record("expected a location")
            return
        }
        #expect(location.userInput == "Somewhere")
        if kept {
            #expect(location.latitude == Double(latitude!))
            #expect(location.longitude == Double(longitude!))
        } else {
            #expect(location.latitude == nil)
            #expect(location.longitude == nil)
        }
    }

    @Test("SES rungs 1 to 10", arguments: 1...10)
    func sesRungs(rung: Int) {
        #expect(Kit.answer(Kit.parse(.ses(SESFormat()), ["q": String(rung)])) == .ses(rung))
    }

    @Test("SES refuses other values", arguments: ["0", "11", "-1", "5.5", "five", "100"])
    func sesRefused(raw: String) {
        Kit.expectIssue(Kit.parse(.ses(SESFormat()), ["q": raw]), .notAChoice, field: "q", message: "Select one of the options")
    }

    @Test("boolean", arguments: [("yes", true), ("Yes", true), ("TRUE", true), ("1", true), (" true ", true),
                                 ("no", false), ("NO", false), ("false", false), ("0", false)] as [(String, Bool)])
    func boolean(raw: String, value: Bool) {
        #expect(Kit.answer(Kit.parse(.boolean(BooleanFormat()), ["q": raw])) == .boolean(value))
    }

    @Test("boolean refuses other values", arguments: ["maybe", "2", "y", "on"])
    func booleanRefused(raw: String) {
        Kit.expectIssue(Kit.parse(.boolean(BooleanFormat()), ["q": raw]), .notAChoice, field: "q", message: "Select one of the options")
    }

    @Test func booleanBlank() {
        #expect(Kit.isEmpty(Kit.parse(.boolean(BooleanFormat()), ["q": ""])))
        #expect(Kit.isEmpty(Kit.parse(.boolean(BooleanFormat()), [:])))
    }
}

// MARK: - Choices

@Suite("AnswerParser: choices")
struct AnswerParserChoiceTests {
    static let single = AnswerFormat.textChoice(TextChoiceFormat(style: .singleChoice, choices: [
        Kit.choice("Cat", "cat"), Kit.choice("Dog", "dog"), Kit.choice("Other", "other", other: OtherOption()),
    ]))
    static let multiple = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: [
        Kit.choice("Cough", "cough"), Kit.choice("Fever", "fever"), Kit.choice("Something else", "else", other: OtherOption()),
        Kit.choice("<b>None</b> of these", "none", exclusive: true),
    ]))

    @Test func singleChoice() {
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "dog"])) == .choices([.string("dog")]))
        #expect(Kit.isEmpty(Kit.parse(Self.single, ["q": ""])))
        #expect(Kit.isEmpty(Kit.parse(Self.single, [:])))
        Kit.expectIssue(Kit.parse(Self.single, ["q": "horse"]), .notAChoice, field: "q", message: "Select one of the options")
        Kit.expectIssue(Kit.parse(Self.single, pairs: [("q", "cat"), ("q", "dog")]), .conflictingValues, field: "q",
                        message: "We received two different answers here; choose one and continue")
        // The same value twice is one choice.
        #expect(Kit.answer(Kit.parse(Self.single, pairs: [("q", "cat"), ("q", "cat")])) == .choices([.string("cat")]))
    }

    @Test func otherTextBecomesTheValue() {
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "  Hamster "])) == .choices([.string("Hamster")]))
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "a\r\nb"])) == .choices([.string("a\nb")]))
        // No text: the choice's own value (the text is optional by default).
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other"])) == .choices([.string("other")]))
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "   "])) == .choices([.string("other")]))
    }

    @Test func otherTextTypedWithoutSelectingIt() {
        // Nothing else selected: the text says what the participant meant.
        #expect(Kit.answer(Kit.parse(Self.single, ["q.other": "Hamster"])) == .choices([.string("Hamster")]))
        // Another choice selected: ask.
        Kit.expectIssue(Kit.parse(Self.single, ["q": "cat", "q.other": "Hamster"]), .otherText, field: "q.other",
                        message: "Select “Other” to give your own answer, or clear the text")
        // Multiple choice: the "other" box is ticked for them, in the choices' order.
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "fever"), ("q.other", "Rash")]))
            == .choices([.string("fever"), .string("Rash")]))
    }

    @Test func requiredOtherText() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(style: .singleChoice, choices: [
            Kit.choice("Cat", "cat"), Kit.choice("Other pet", "other", other: OtherOption(optional: false)),
        ]))
        Kit.expectIssue(Kit.parse(format, ["q": "other"]), .otherText, field: "q.other", message: "Enter your answer for “Other pet”")
        #expect(Kit.answer(Kit.parse(format, ["q": "other", "q.other": "Hamster"])) == .choices([.string("Hamster")]))
        #expect(Kit.answer(Kit.parse(format, ["q": "cat"])) == .choices([.string("cat")]))
    }

    @Test func severalOtherChoicesHaveIndexedFields() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: [
            Kit.choice("Cat", "cat"), Kit.choice("Other mammal", "mammal", other: OtherOption()),
            Kit.choice("Other bird", "bird", other: OtherOption(optional: false)),
        ]))
        #expect(AnswerFields.other("q", choiceIndex: 1, in: [Kit.choice("Cat", "cat"), Kit.choice("Other", "o", other: OtherOption())]) == "q.other")
        #expect(Kit.answer(Kit.parse(format, pairs: [("q", "cat"), ("q.other.2", "Parrot"), ("q.other.1", "Rabbit")]))
            == .choices([.string("cat"), .string("Rabbit"), .string("Parrot")]))
        Kit.expectIssue(Kit.parse(format, ["q": "bird"]), .otherText, field: "q.other.2", message: "Enter your answer for “Other bird”")
    }

    @Test func multipleChoice() {
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "fever"), ("q", "cough")])) == .choices([.string("cough"), .string("fever")]))
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "cough"), ("q", "")])) == .choices([.string("cough")]))
        #expect(Kit.answer(Kit.parse(Self.multiple, ["q": "none"])) == .choices([.string("none")]))
        #expect(Kit.isEmpty(Kit.parse(Self.multiple, pairs: [("q", ""), ("q", "")])))
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "sneeze")]), .notAChoice, field: "q")
    }

    @Test func exclusiveWithOthers() {
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "none")]), .exclusive, field: "q",
                        message: "Select “None of these” on its own, or untick it to choose other answers")
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "none"), ("q", "fever"), ("q", "cough")]), .exclusive, field: "q")
        // Other text typed beside "none" ticks "something else", which conflicts too.
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "none"), ("q.other", "Rash")]), .exclusive, field: "q")
    }

    @Test func valuePicker() {
        let format = AnswerFormat.valuePicker(ValuePickerFormat(choices: [TextChoice(text: "One", value: .number(1)), Kit.choice("Two", "two")]))
        #expect(Kit.answer(Kit.parse(format, ["q": "1"])) == .choices([.number(1)]))
        #expect(Kit.answer(Kit.parse(format, ["q": "two"])) == .choices([.string("two")]))
        Kit.expectIssue(Kit.parse(format, ["q": "three"]), .notAChoice, field: "q")
        Kit.expectIssue(Kit.parse(format, pairs: [("q", "1"), ("q", "two")]), .conflictingValues, field: "q")
        #expect(Kit.isEmpty(Kit.parse(format, ["q": ""])))
    }

    @Test func imageChoice() {
        let choices = [ImageChoice(image: "sun.png", imageAlt: "Sunny", value: .string("sun")),
                       ImageChoice(image: "rain.png", imageAlt: "Rainy", text: "Rain", value: .string("rain"))]
        let single = AnswerFormat.imageChoice(ImageChoiceFormat(choices: choices))
        #expect(Kit.answer(Kit.parse(single, ["q": "rain"])) == .choices([.string("rain")]))
        Kit.expectIssue(Kit.parse(single, pairs: [("q", "sun"), ("q", "rain")]), .conflictingValues, field: "q")
        Kit.expectIssue(Kit.parse(single, ["q": "snow"]), .notAChoice, field: "q")
        let multiple = AnswerFormat.imageChoice(ImageChoiceFormat(style: .multipleChoice, choices: choices))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "rain"), ("q", "sun")])) == .choices([.string("sun"), .string("rain")]))
    }

    static let clock = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
        [Kit.choice("1", "1"), Kit.choice("2", "2")],
        [Kit.choice("am", "am"), Kit.choice("pm", "pm")],
        [TextChoice(text: "UTC", value: .number(0)), TextChoice(text: "CET", value: .number(1))],
    ]))

    @Test func multipleValuePicker() {
        #expect(Kit.answer(Kit.parse(Self.clock, ["q.0": "2", "q.1": "pm", "q.2": "1"])) == .components([.string("2"), .string("pm"), .number(1)]))
        #expect(Kit.isEmpty(Kit.parse(Self.clock, [:])))
        #expect(Kit.isEmpty(Kit.parse(Self.clock, ["q.0": "", "q.1": "", "q.2": ""])))
    }

    @Test("a partly answered picker is incomplete on the first missing list",
          arguments: [(["q.0": "1"], "q.1"), (["q.1": "am", "q.2": "0"], "q.0"), (["q.0": "1", "q.1": "am"], "q.2"),
                      (["q.0": "1", "q.1": "", "q.2": "0"], "q.1")] as [([String: String], String)])
    func multipleValuePickerPartial(fields: [String: String], missing: String) {
        Kit.expectIssue(Kit.parse(Self.clock, fields), .incomplete, field: missing, message: "Select a value in every list")
    }

    @Test func multipleValuePickerRefusesUnknownValues() {
        Kit.expectIssue(Kit.parse(Self.clock, ["q.0": "1", "q.1": "noon", "q.2": "0"]), .notAChoice, field: "q.1")
        Kit.expectIssue(Kit.parse(Self.clock, ["q.0": "3"]), .notAChoice, field: "q.0")
    }
}

// MARK: - Don't know

@Suite("AnswerParser: don't know")
struct AnswerParserDontKnowTests {
    /// Every format that can show the button, with the button shown, and garbage in its main field.
    static let withButton: [AnswerFormat] = [
        .scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: Kit.shown)),
        .continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, dontKnow: Kit.shown)),
        .textScale(TextScaleFormat(choices: [Kit.choice("A", "a"), Kit.choice("B", "b")], dontKnow: Kit.shown)),
        .numeric(NumericFormat(style: .integer, minimum: 0, maximum: 10, dontKnow: Kit.shown)),
        .timeOfDay(TimeOfDayFormat(dontKnow: Kit.shown)),
        .date(DateFormat(dontKnow: Kit.shown)),
        .timeInterval(TimeIntervalFormat(dontKnow: Kit.shown)),
        .text(TextFormat(maximumLength: 1, dontKnow: Kit.shown)),
        .email(EmailFormat(dontKnow: Kit.shown)),
        .height(HeightFormat(measurementSystem: .metric, dontKnow: Kit.shown)),
        .weight(WeightFormat(measurementSystem: .metric, dontKnow: Kit.shown)),
        .age(AgeFormat(dontKnow: Kit.shown)),
        .ses(SESFormat(dontKnow: Kit.shown)),
    ]

    @Test("don't know is honoured where the button is shown", arguments: withButton)
    func honoured(format: AnswerFormat) {
        #expect(format.showsDontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1"])) == .dontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1", "q": "not valid at all"])) == .dontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": ""])) == .dontKnow)
    }

    @Test("don't know is ignored where the button is hidden", arguments: [
        AnswerFormat.numeric(NumericFormat(style: .integer)),
        .numeric(NumericFormat(style: .integer, dontKnow: DontKnowOption(show: false))),
        .numeric(NumericFormat(style: .integer, dontKnow: DontKnowOption(buttonText: "Not sure"))),
        .scale(ScaleFormat(minimum: 0, maximum: 10)),
        .text(TextFormat()),
        .date(DateFormat()),
    ])
    func ignoredWhenHidden(format: AnswerFormat) {
        #expect(!format.showsDontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1"])) != .dontKnow)
        #expect(Kit.isEmpty(Kit.parse(format, ["q.dontKnow": "1"])))
    }

    @Test("formats without the button never answer don't know", arguments: [
        AnswerFormat.boolean(BooleanFormat()),
        .textChoice(TextChoiceFormat(style: .singleChoice, choices: [Kit.choice("A", "a")])),
        .valuePicker(ValuePickerFormat(choices: [Kit.choice("A", "a")])),
        .multipleValuePicker(MultipleValuePickerFormat(pickers: [[Kit.choice("A", "a")]])),
        .imageChoice(ImageChoiceFormat(choices: [ImageChoice(image: "a.png", imageAlt: "A", value: .string("a"))])),
        .location(LocationFormat()),
    ])
    func neverDontKnow(format: AnswerFormat) {
        #expect(format.dontKnow == nil)
        #expect(Kit.isEmpty(Kit.parse(format, ["q.dontKnow": "1"])))
    }

    @Test func dontKnowFieldIsPerQuestion() {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer, dontKnow: Kit.shown))
        #expect(AnswerFields.dontKnow("temp") == "temp.dontKnow")
        #expect(Kit.answer(Kit.parse(format, ["temp.dontKnow": "1"], name: "temp")) == .dontKnow)
        #expect(Kit.isEmpty(Kit.parse(format, ["other.dontKnow": "1"], name: "temp")))
        #expect(Kit.numeric(Kit.parse(format, ["temp": "3"], name: "temp")) == 3)
    }
}
