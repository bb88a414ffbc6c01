import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

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
                        message: "Geben Sie eine Zahl ein, zum Beispiel 12 oder 3,5", language: "de")
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
