import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: boolean")
struct AnswerParserBooleanTests {
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
