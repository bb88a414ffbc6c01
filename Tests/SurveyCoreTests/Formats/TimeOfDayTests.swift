import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: time of day")
struct AnswerParserTimeOfDayTests {
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
}
