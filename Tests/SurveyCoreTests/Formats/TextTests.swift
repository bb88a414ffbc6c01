import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: text")
struct AnswerParserTextTests {
    static let five = AnswerFormat.text(TextFormat(maximumLength: 5))

    @Test("maximumLength counts UTF-16 units after CRLF becomes LF",
          arguments: [
              ("abcde", "abcde"), ("  abcde  ", "abcde"), ("ab\r\ncd", "ab\ncd"), ("abc😀", "abc😀"), ("\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}", "ééééé"),
              ("a", "a"),
          ] as [(String, String)])
    func withinLimit(raw: String, recorded: String) {
        #expect(Kit.answer(Kit.parse(Self.five, ["q": raw])) == .text(recorded))
    }

    @Test("maximumLength refuses one more unit", arguments: ["abcdef", "ab\r\ncde", "abcd😀", "e\u{301}e\u{301}e\u{301}", "ab\ncde"])
    func overLimit(raw: String) {
        Kit.expectIssue(Kit.parse(Self.five, ["q": raw]), .tooLong, field: "q", message: "Answer must be 5 characters or fewer")
    }

    @Test func zeroLengthMeansNoLimit() {
        let format = AnswerFormat.text(TextFormat(maximumLength: 0))
        let long = String(repeating: "x", count: 10_000)
        #expect(Kit.answer(Kit.parse(format, ["q": long])) == .text(long))
    }

    @Test("blank text is no answer", arguments: ["", "   ", "\r\n", "\t \n"])
    func blank(raw: String) {
        #expect(Kit.isEmpty(Kit.parse(Self.five, ["q": raw])))
    }

    @Test func multipleLinesKeepInnerLineBreaks() {
        let format = AnswerFormat.text(TextFormat(multipleLines: true))
        #expect(Kit.answer(Kit.parse(format, ["q": "\r\nline one\r\nline two\r\n"])) == .text("line one\nline two"))
    }

    static let digit = AnswerFormat.text(TextFormat(validationRegularExpression: "[0-9]", invalidMessage: "“%@” needs a digit"))
    static let code = AnswerFormat.text(TextFormat(validationRegularExpression: "^[A-Z]{2}[0-9]{4}$", invalidMessage: "Enter a code like AB1234"))

    @Test("an unanchored expression needs only a partial match", arguments: ["1", "abc1", "1abc", "a1b"])
    func partialMatch(raw: String) {
        #expect(Kit.answer(Kit.parse(Self.digit, ["q": raw])) == .text(raw))
    }

    @Test func invalidMessageQuotesTheInput() {
        Kit.expectIssue(Kit.parse(Self.digit, ["q": "  abc  "]), .pattern, field: "q", message: "“abc” needs a digit")
    }

    @Test("an anchored expression needs a whole match",
          arguments: [("AB1234", true), ("xAB1234", false), ("AB12345", false), ("ab1234", false), (" AB1234 ", true)] as [(String, Bool)])
    func anchored(raw: String, valid: Bool) {
        let outcome = Kit.parse(Self.code, ["q": raw])
        if valid {
            #expect(Kit.answer(outcome) == .text("AB1234"))
        } else {
            Kit.expectIssue(outcome, .pattern, field: "q", message: "Enter a code like AB1234")
        }
    }

    @Test func lengthIsCheckedBeforeThePattern() {
        let format = AnswerFormat.text(TextFormat(maximumLength: 3, validationRegularExpression: "^[0-9]+$", invalidMessage: "Digits only"))
        Kit.expectIssue(Kit.parse(format, ["q": "abcd"]), .tooLong, field: "q")
        Kit.expectIssue(Kit.parse(format, ["q": "abc"]), .pattern, field: "q", message: "Digits only")
        #expect(Kit.answer(Kit.parse(format, ["q": "123"])) == .text("123"))
    }

    @Test func invalidMessageFollowsTheParticipantsLanguage() {
        let message = LocalizedText(translations: [("en", "Enter digits, not “%@”"), ("es", "Escriba cifras, no «%@»")])
        let format = AnswerFormat.text(TextFormat(validationRegularExpression: "^[0-9]+$", invalidMessage: message))
        Kit.expectIssue(Kit.parse(format, ["q": "abc"], language: "en"), .pattern, field: "q", message: "Enter digits, not “abc”")
        Kit.expectIssue(Kit.parse(format, ["q": "abc"], language: "es"), .pattern, field: "q", message: "Escriba cifras, no «abc»", language: "es")
    }
}
