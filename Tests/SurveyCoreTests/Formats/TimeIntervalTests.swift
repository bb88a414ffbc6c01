import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: time interval")
struct AnswerParserTimeIntervalTests {
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
