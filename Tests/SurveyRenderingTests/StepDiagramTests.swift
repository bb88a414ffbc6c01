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

extension StepDiagramTests {
    /// 100 steps: s0 … s99, with s10 a yes-or-no question that jumps to s50 on yes.
    static func long() throws -> SurveyTask {
        var steps: [String] = []
        for index in 0..<100 {
            steps.append(index == 10
                ? "{ \"type\": \"question\", \"identifier\": \"s10\", \"question\": \"Jump?\", \"answerFormat\": { \"type\": \"boolean\" } }"
                : "{ \"type\": \"instruction\", \"identifier\": \"s\(index)\", \"title\": \"Step \(index)\" }")
        }
        return try loadSurvey("""
        { "identifier": "long", "steps": [\(steps.joined(separator: ","))],
          "navigationRules": { "s10": { "type": "predicate", "rules": [ { "if": { "result": "s10", "equals": true }, "destination": "s50" } ] } } }
        """)
    }

    @Test("A survey of 100 steps folds its straight runs into boxes and keeps every branch")
    func folds() throws {
        let task = try Self.long()
        let diagram = StepDiagram(task: task, words: PreviewExplainer(task: task), unreachable: [])
        #expect(diagram.moves.count >= 100, "the model keeps every move")
        let svg = diagram.svg()
        let boxes = svg.components(separatedBy: "<a href=").count - 1
        #expect(boxes < 10, "\(boxes) boxes")
        #expect(svg.contains("data-from=\"s10\" data-to=\"s11\"") && svg.contains("data-from=\"s10\" data-to=\"s50\""))
        #expect(svg.contains("s0 … s9") && svg.contains("10 steps in a row"))
        #expect(svg.utf8.count < 20_000, "\(svg.utf8.count) bytes")
    }
}
