import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: height")
struct AnswerParserHeightTests {
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
}
