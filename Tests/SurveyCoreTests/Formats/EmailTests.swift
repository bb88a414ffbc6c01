import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: email")
struct AnswerParserEmailTests {
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
