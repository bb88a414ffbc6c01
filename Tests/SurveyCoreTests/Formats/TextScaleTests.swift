import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: text scale")
struct AnswerParserTextScaleTests {
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
