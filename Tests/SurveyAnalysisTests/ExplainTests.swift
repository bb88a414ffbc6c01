import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Explaining a run")
struct ExplainTests {
    static let survey = """
        {"identifier": "explain", "steps": [
          {"identifier": "quiet", "type": "instruction"},
          {"identifier": "fever", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "temp", "type": "question", "answerFormat": {"type": "numeric", "minimum": 34, "maximum": 43}},
          {"identifier": "cough", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "advice", "type": "instruction"},
          {"identifier": "fine", "type": "completion"}],
         "navigationRules": {
           "fever": {"type": "predicate", "rules": [{"if": {"result": "fever", "equals": false}, "destination": "cough"}]},
           "temp": {"type": "predicate", "rules": [{"if": {"result": "temp", "minimum": 39}, "destination": "$end"}]}},
         "skipRules": {"quiet": {"not": {"result": "fever", "isNil": false}},
                       "cough": {"result": "temp", "maximum": 38},
                       "advice": {"result": "fever", "equals": true}}}
        """

    @Test("Each visit names the rule that moved it on and the steps skipped after it")
    func simulatedRun() throws {
        var walker = Walker(try loadSurvey(Self.survey))
        walker.next(["fever": "true"])
        walker.next(["temp": "37.5"])
        #expect(walker.pathIdentifiers == ["fever", "temp", "fine"])
        let explanation = walker.navigator.explain(walker.run)
        #expect(explanation.skippedAtStart.map(\.step) == ["quiet"])
        #expect(explanation.steps.map(\.step) == ["fever", "temp", "fine"])
        #expect(explanation.steps[0].move?.kind == .otherwise)
        #expect(explanation.steps[0].move?.to == .step("temp"))
        #expect(explanation.steps[0].skippedAfter.isEmpty)
        #expect(explanation.steps[1].move?.kind == .otherwise)
        #expect(explanation.steps[1].skippedAfter.map(\.step) == ["cough", "advice"])
        #expect(explanation.steps[1].skippedAfter.first?.predicate == walker.navigator.task.skipRule(for: "cough"))
        #expect(explanation.steps[2].move == nil)
    }

    @Test("A run ended by a rule to $end explains its last move; a run in progress has none for its current step")
    func endAndInProgress() throws {
        var walker = Walker(try loadSurvey(Self.survey))
        walker.next(["fever": "true"])
        let inProgress = walker.navigator.explain(walker.run)
        #expect(inProgress.steps.map(\.step) == ["fever", "temp"])
        #expect(inProgress.steps.last?.move == nil)
        walker.next(["temp": "39.5"])
        #expect(walker.run.finishReason == .completed)
        let ended = walker.navigator.explain(walker.run)
        #expect(ended.steps.last?.move?.kind == .rule(0))
        #expect(ended.steps.last?.move?.to == .end)
    }

    @Test("The explanation of a witness's run has the witness's moves and skips")
    func agreesWithWitness() throws {
        let task = try loadSurvey(Self.survey)
        let witness = try #require(finder(task).reach("advice").witness)
        #expect(witness.path == ["fever", "cough", "advice"])
        var walker = Walker(task)
        for (_, value) in witness.answers {
            guard case .object(let fields) = value else { continue }
            walker.next(Dictionary(uniqueKeysWithValues: fields.entries.compactMap { entry in
                if case .string(let text) = entry.value { return (entry.key, text) }
                return nil
            }))
        }
        #expect(walker.pathIdentifiers == witness.path)
        let explanation = walker.navigator.explain(walker.run)
        #expect(explanation.steps.dropLast().compactMap(\.move) == witness.moves)
        let skipped = explanation.skippedAtStart.map(\.step) + explanation.steps.flatMap { $0.skippedAfter.map(\.step) }
        #expect(skipped == witness.skipped.map(\.step))
    }
}
