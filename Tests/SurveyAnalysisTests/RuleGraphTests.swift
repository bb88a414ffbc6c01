import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("The rule graph")
struct RuleGraphTests {
    static let survey = """
        {"identifier": "graph", "steps": [
          {"identifier": "intro", "type": "instruction"},
          {"identifier": "fever", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "temp", "type": "question", "answerFormat": {"type": "numeric", "minimum": 34, "maximum": 43}},
          {"identifier": "cough", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "urgent", "type": "completion"},
          {"identifier": "fine", "type": "completion"}],
         "navigationRules": {
           "fever": {"type": "predicate", "rules": [{"if": {"result": "fever", "equals": false}, "destination": "cough"}]},
           "temp": {"type": "predicate",
                    "rules": [{"if": {"result": "temp", "minimum": 40}, "destination": "urgent"},
                              {"if": {"result": "temp", "minimum": 38}, "destination": "$end"}],
                    "default": "fine"},
           "cough": {"type": "direct", "destination": "fine"}},
         "skipRules": {"cough": {"result": "fever", "equals": true}}}
        """

    static let fever = ResultSelector("fever")
    static let temp = ResultSelector("temp")

    @Test("A step without a rule moves to the next step in the array; the last one to the end")
    func nextStep() throws {
        let graph = RuleGraph(task: try loadSurvey(Self.survey))
        let intro = graph.edges(from: "intro")
        #expect(intro.count == 1)
        #expect(intro.first?.kind == .next)
        #expect(intro.first?.to == .step("fever"))
        #expect(intro.first?.condition == nil)
        #expect(graph.edges(from: "fine").map(\.to) == [.end])
        #expect(graph.edges(from: "fine").map(\.kind) == [.next])
    }

    @Test("A predicate rule gives one move per rule, then its default (the next step when it has none)")
    func predicateRule() throws {
        let graph = RuleGraph(task: try loadSurvey(Self.survey))
        let moves = graph.edges(from: "fever")
        #expect(moves.map(\.kind) == [.rule(0), .otherwise])
        #expect(moves.map(\.to) == [.step("cough"), .step("temp")])
        let isFalse = Predicate.equals(Self.fever, .bool(false))
        #expect(moves[0].predicate == isFalse)
        #expect(moves[0].condition == isFalse)
        #expect(moves[1].predicate == nil)
        #expect(moves[1].condition == .not(isFalse))
    }

    @Test("Each rule's condition negates the rules before it; the default negates them all")
    func conditionsNegateEarlierRules() throws {
        let graph = RuleGraph(task: try loadSurvey(Self.survey))
        let moves = graph.edges(from: "temp")
        let forty = Predicate.range(Self.temp, minimum: .number(40), maximum: nil)
        let thirtyEight = Predicate.range(Self.temp, minimum: .number(38), maximum: nil)
        #expect(moves.map(\.kind) == [.rule(0), .rule(1), .otherwise])
        #expect(moves.map(\.to) == [.step("urgent"), .end, .step("fine")])
        #expect(moves[1].predicate == thirtyEight)
        #expect(moves[1].condition == .all([.not(forty), thirtyEight]))
        #expect(moves[2].condition == .all([.not(forty), .not(thirtyEight)]))
    }

    @Test("A direct rule is one unconditional move")
    func directRule() throws {
        let graph = RuleGraph(task: try loadSurvey(Self.survey))
        let moves = graph.edges(from: "cough")
        #expect(moves.count == 1)
        #expect(moves.first?.kind == .always)
        #expect(moves.first?.to == .step("fine"))
        #expect(moves.first?.condition == nil)
    }

    @Test("Skip rules are kept by step; all moves are listed in step order")
    func skipRulesAndOrder() throws {
        let graph = RuleGraph(task: try loadSurvey(Self.survey))
        #expect(graph.skipRules == ["cough": .equals(Self.fever, .bool(true))])
        #expect(graph.edges.map(\.from) == ["intro", "fever", "fever", "temp", "temp", "temp", "cough", "urgent", "fine"])
    }
}
