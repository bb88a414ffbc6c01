import Foundation
import SurveyAnalysis
import SurveyCore
import SurveyRendering
import SurveyTestSupport
import Testing

/// The preview map's picture against the rule graph: every move the navigator can make is an
/// arrow, and no other.
@Suite("The map's diagram")
struct StepDiagramTests {
    /// The moves the navigator can make: each step's rule (a completion step's only when a skip
    /// rule can pass it over), and a completion step's end of the run.
    static func expectedMoves(_ task: SurveyTask) -> Set<String> {
        var moves: Set<String> = []
        for edge in RuleGraph(task: task).edges {
            guard let step = task.step(edge.from) else { continue }
            if step.kind == .completion, task.skipRule(for: edge.from) == nil { continue }
            moves.insert("\(edge.from) -> \(edge.to)")
        }
        for step in task.steps where step.kind == .completion { moves.insert("\(step.identifier) -> \(Destination.endName)") }
        return moves
    }

    @Test("Each example's arrows are its moves", arguments: Repository.exampleNames())
    func arrowsAreMoves(name: String) throws {
        let task = try SurveyLoader.load(try Data(contentsOf: Repository.examples.appendingPathComponent(name))).task
        let diagram = StepDiagram(task: task, words: PreviewExplainer(task: task), unreachable: [])
        let drawn = Set(diagram.moves.map { "\($0.from) -> \($0.to)" })
        #expect(drawn == Self.expectedMoves(task))
        let svg = diagram.svg()
        // Every drawn move is in the SVG, and every step a box linking to its preview.
        for move in diagram.moves {
            #expect(svg.contains("data-from=\"\(move.from)\" data-to=\"\(move.to)\""))
        }
        for step in task.steps {
            #expect(svg.contains("href=\"/preview/\(task.identifier)/steps/\(step.identifier)\""))
        }
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>") && !svg.contains("<script"))
    }

    @Test("A step no answers reach is marked, and a skip rule is written on its box")
    func marks() throws {
        let task = try SurveyLoader.load(try Data(contentsOf: Repository.examples.appendingPathComponent("fever-triage.json"))).task
        let svg = StepDiagram(task: task, words: PreviewExplainer(task: task), unreachable: ["urgent"]).svg()
        #expect(svg.contains("urgent, completion, no answers reach it"))
        #expect(svg.contains("skipped when fever is No"))
    }

    @Test("Text from the survey is escaped in the picture")
    func escaped() throws {
        let task = try loadSurvey("""
        { "identifier": "x", "steps": [
          { "type": "question", "identifier": "a", "question": "A?", "answerFormat": { "type": "textChoice", "style": "singleChoice",
            "choices": [ { "text": "x < y & z", "value": "v" }, { "text": "w", "value": "w" } ] } },
          { "type": "instruction", "identifier": "b", "title": "B" } ],
          "navigationRules": { "a": { "type": "predicate", "rules": [ { "if": { "result": "a", "choice": "v" }, "destination": "$end" } ] } } }
        """)
        let svg = StepDiagram(task: task, words: PreviewExplainer(task: task), unreachable: []).svg()
        #expect(svg.contains("x &lt; y &amp; z"))
        #expect(!svg.contains("x < y"))
    }
}
