import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: scale")
struct AnswerParserScaleTests {
    static let even = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, step: 2))

    @Test("discrete scale: on grid, off grid and out of range",
          arguments: [
              ("0", 0.0, nil), ("2", 2, nil), ("10", 10, nil), ("4.0", 4, nil), (" 6 ", 6, nil),
              ("1", nil, AnswerIssue.Code.notAChoice), ("9", nil, .notAChoice), ("4.5", nil, .notAChoice), ("x", nil, .notAChoice),
              ("-2", nil, .outOfRange), ("12", nil, .outOfRange), ("-1", nil, .outOfRange), ("11", nil, .outOfRange),
          ] as [(String, Double?, AnswerIssue.Code?)])
    func discrete(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.even, ["q": raw])
        if let expected { #expect(Kit.scale(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "q") }
    }

    @Test func discreteMessages() {
        Kit.expectIssue(Kit.parse(Self.even, ["q": "12"]), .outOfRange, field: "q", message: "Select a value from 0 to 10")
        Kit.expectIssue(Kit.parse(Self.even, ["q": "3"]), .notAChoice, field: "q", message: "Select one of the options")
    }

    @Test func negativeDiscreteScale() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: -5, maximum: 5, step: 5))
        #expect(Kit.scale(Kit.parse(format, ["q": "-5"])) == -5)
        #expect(Kit.scale(Kit.parse(format, ["q": "\u{2212}5"])) == -5)
        #expect(Kit.scale(Kit.parse(format, ["q": "0"])) == 0)
        #expect(Kit.scale(Kit.parse(format, ["q": "5"])) == 5)
        Kit.expectIssue(Kit.parse(format, ["q": "-4"]), .notAChoice, field: "q")
        Kit.expectIssue(Kit.parse(format, ["q": "-6"]), .outOfRange, field: "q")
    }

    /// A number too large for an Int must be refused, not crash the server.
    @Test func hugeDiscreteValueIsRefusedWithoutCrashing() async {
        await #expect(processExitsWith: .success) {
            let outcome = AnswerParser.parse(.scale(ScaleFormat(minimum: 0, maximum: 10)), name: "q",
                                             fields: FormFields(["q": ["99999999999999999999"]]), context: AnswerContext(language: "en"))
            guard case .invalid(let issues) = outcome, issues.first?.code == .outOfRange else { exit(1) }
            exit(0)
        }
    }
}
