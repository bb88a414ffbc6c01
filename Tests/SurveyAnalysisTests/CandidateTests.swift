import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Candidate answers")
struct CandidateTests {
    static let candidates = AnswerCandidates(context: AnswerContext(language: nil, now: referenceNow, timeZone: utc))

    static func formatFixtures() -> [String] {
        Repository.jsonFiles(in: Repository.fixtures.appendingPathComponent("formats")).map(\.lastPathComponent)
    }

    @Test("Every format's fixture question gets answers it accepts, so a required question can always be answered",
          arguments: formatFixtures())
    func everyFormatAnswers(name: String) throws {
        let task = try SurveyLoader.load(contentsOf: Repository.fixtures.appendingPathComponent("formats").appendingPathComponent(name)).task
        for step in task.steps {
            for question in step.questions {
                let answers = Self.candidates.answers(for: question, tests: [])
                #expect(answers.contains { $0 != .dontKnow }, "\(name): \(question.identifier)")
                for answer in answers {
                    #expect(Self.candidates.accept(answer, for: question) == answer, "\(name): \(answer) does not read back")
                }
            }
        }
    }

    @Test("Numbers are tried on the constants, a grid step and 1 either side, and between them, within the bounds")
    func numbers() {
        let values = NumberCandidates.numbers(around: [3, 3.5], digits: 1, low: 0, high: 10)
        for expected in [3.0, 3.5, 2.9, 3.1, 3.4, 3.6, 2.0, 4.5, 0.0, 10.0] {
            #expect(values.contains(expected), "\(expected) is missing from \(values)")
        }
        #expect(values.allSatisfy { (0...10).contains($0) })
        #expect(NumberCandidates.numbers(around: [2.5], digits: 0, low: nil, high: nil).contains(3))
        #expect(NumberCandidates.digitsFor([38.25, 1]) == 3)
    }

    @Test("A multiple choice is tried with the tested values in every combination, and with an untested one")
    func multipleChoice() {
        let format = TextChoiceFormat(style: .multipleChoice, choices: ["a", "b", "c", "d"].map { TextChoice(text: LocalizedText($0), value: .string($0)) })
        let selector = ResultSelector("q")
        let tested = TestedValues([.choice(selector, .string("a")), .choices(selector, [.string("b")])])
        let sets = Set(ChoiceCandidates(choices: format.choices, multiple: true, tested: tested).answers)
        for expected in [["a"], ["b"], ["a", "b"], ["a", "c"], ["a", "b", "c"], ["c"]] {
            #expect(sets.contains(.choices(expected.map(ChoiceValue.string))), "\(expected)")
        }
    }

    @Test("Strings a pattern spells out", arguments: [
        ("^(yes|y)$", ["yes", "y"]),
        ("no.*", ["no"]),
        (#"[Nn]ever|\d{2}"#, ["Never", "11"]),
        ("colou?r", ["color", "colour"]),
        ("(?i:maybe)", ["maybe"]),
    ])
    func regexExamples(pattern: String, expected: [String]) {
        let examples = RegexExamples.examples(of: pattern)
        for text in expected {
            #expect(examples.contains(text), "\(text) is not among \(examples)")
        }
        #expect(examples.contains { Predicate.wholeMatch($0, pattern) })
    }
}
