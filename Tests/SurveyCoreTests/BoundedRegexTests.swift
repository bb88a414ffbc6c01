import Foundation
import Testing
@testable import SurveyCore

/// The survey's regular expressions are matched with a budget, so that a hostile answer costs
/// milliseconds, not seconds.
@Suite("Bounded regular expressions")
struct BoundedRegexTests {
    typealias Kit = AnswerTestKit

    /// Forty a's and a character that makes `(a+)+` try every way of splitting them: about
    /// 2⁴⁰ paths without a limit.
    static let hostile = String(repeating: "a", count: 40) + "!"

    @Test("A pattern that backtracks without end is stopped within its budget")
    func catastrophicPatternIsStopped() {
        let started = Date()
        #expect(BoundedRegex.search("^(a+)+$", in: Self.hostile) == .overBudget)
        #expect(BoundedRegex.wholeMatch("(a|aa)+", Self.hostile) == .overBudget)
        // A loose bound for a busy machine: unbounded, the first alone takes well over a second.
        #expect(Date().timeIntervalSince(started) < 0.5)
    }

    @Test("Ordinary patterns match as NSRegularExpression matches them",
          arguments: [("^[A-Z]{2}[0-9]{4}$", "AB1234"), ("[0-9]", "abc1"), ("^\\p{L}+$", "Ærøskøbing"),
                      ("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "someone@example.org"), ("colou?r", "the colour")])
    func ordinaryPatterns(pattern: String, text: String) throws {
        #expect(BoundedRegex.search(pattern, in: text) == .match)
        let expression = try NSRegularExpression(pattern: pattern)
        #expect(expression.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) > 0)
        #expect(BoundedRegex.search(pattern, in: "\u{1F600} " + text) == (pattern.hasPrefix("^") ? .noMatch : .match))
        #expect(BoundedRegex.search("^[0-9]+$", in: text) == .noMatch)
    }

    @Test("A linear pattern reads an answer as long as the limit allows")
    func longAnswerWithinBudget() {
        let long = String(repeating: "word ", count: BoundedRegex.inputLimit / 5)
        #expect(BoundedRegex.search("^[a-z ]+$", in: long) == .match)
        #expect(BoundedRegex.search("^[a-z ]+$", in: long + "x") == .overBudget)
        #expect(BoundedRegex.search("", in: "") == .match)
    }

    @Test("A text answer that runs the pattern out of steps is refused with the survey's message, at once")
    func hostileAnswerIsRefused() {
        let format = AnswerFormat.text(TextFormat(validationRegularExpression: "^(a+)+$", invalidMessage: "Only the letter a"))
        let started = Date()
        Kit.expectIssue(Kit.parse(format, ["q": Self.hostile]), .pattern, field: "q", message: "Only the letter a")
        #expect(Date().timeIntervalSince(started) < 0.5)
        #expect(Kit.answer(Kit.parse(format, ["q": "aaaa"])) == .text("aaaa"))
    }

    @Test("An answer longer than a pattern is matched against is refused as too long")
    func overlongAnswerIsRefused() {
        let format = AnswerFormat.text(TextFormat(validationRegularExpression: "^[a-z]+$", invalidMessage: "Letters"))
        Kit.expectIssue(Kit.parse(format, ["q": String(repeating: "a", count: BoundedRegex.inputLimit + 1)]), .tooLong, field: "q")
        #expect(Kit.answer(Kit.parse(format, ["q": String(repeating: "a", count: BoundedRegex.inputLimit)])) != nil)
    }

    @Test("A rule's pattern out of steps reads as no match")
    func rulePatternOverBudget() {
        #expect(!Predicate.wholeMatch(Self.hostile, "(a+)+"))
        #expect(Predicate.wholeMatch("aaa", "(a+)+"))
    }

    @Test("Nested repetitions are found", arguments: ["(a+)+", "^(a+)+$", "(\\w+\\s?)*", "(a*)*b", "((ab)+c)*", "(x{1,9}){2,}",
                                                     "(?:[a-z]+\\.)+", "(a|b+)*"])
    func nestedRepetitionFound(pattern: String) {
        #expect(BoundedRegex.repeatsARepetition(pattern))
    }

    @Test("Single repetitions, possessive and atomic ones are not", arguments: ["^[a-z]+$", "(ab)+", "(a+)?", "(?>a+)+", "(a++)+",
                                                                               "\\(a+\\)+", "[(a+)]+", "(a{2})*", "(a|b)*", "a{2,}b+"])
    func singleRepetitionNotFound(pattern: String) {
        #expect(!BoundedRegex.repeatsARepetition(pattern))
    }

    @Test("A pattern that does not compile is refused")
    func brokenPattern() {
        #expect(!BoundedRegex.compiles("(a"))
        #expect(BoundedRegex.compiles("(a)"))
        #expect(BoundedRegex.search("(a", in: "a") == .noMatch)
    }
}
