import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: SES")
struct AnswerParserSESTests {
    @Test("SES rungs 1 to 10", arguments: 1...10)
    func sesRungs(rung: Int) {
        #expect(Kit.answer(Kit.parse(.ses(SESFormat()), ["q": String(rung)])) == .ses(rung))
    }

    @Test("SES refuses other values", arguments: ["0", "11", "-1", "5.5", "five", "100"])
    func sesRefused(raw: String) {
        Kit.expectIssue(Kit.parse(.ses(SESFormat()), ["q": raw]), .notAChoice, field: "q", message: "Select one of the options")
    }
}
