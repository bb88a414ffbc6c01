import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: weight")
struct AnswerParserWeightTests {
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
}
