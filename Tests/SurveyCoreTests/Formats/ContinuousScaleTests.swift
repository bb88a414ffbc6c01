import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: continuous scale")
struct AnswerParserContinuousScaleTests {
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
}
