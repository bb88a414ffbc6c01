import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Reaching every step of the examples and fixtures")
struct ReachExampleTests {
    static func load(_ url: URL) throws -> SurveyTask {
        try SurveyLoader.load(contentsOf: url).task
    }

    @Test("Every step of every example is reachable, and its answers lead there through the navigator",
          arguments: Repository.exampleNames())
    func everyExampleStep(name: String) throws {
        let task = try Self.load(Repository.examples.appendingPathComponent(name))
        let memo = SolverMemo()
        let reaches = finder(task).reachability(memo: memo)
        #expect(memo.mismatches == 0)
        for step in task.steps {
            let witness = try #require(reaches[step.identifier]?.witness, "\(name): \(step.identifier) is not reachable")
            #expect(witness.path.last == step.identifier)
            #expect(witness.answers.map(\.step) == witness.path.dropLast())
            #expect(witness.moves.count == witness.path.count - 1)
            #expect(replay(witness.answersFile, in: task, until: step.identifier) == witness.path, "\(name): \(step.identifier)")
        }
    }

    @Test("The fever triage's endings need the answers that the rules name")
    func triageEndings() throws {
        let task = try Self.load(Repository.examples.appendingPathComponent("fever-triage.json"))
        let finder = finder(task)
        let urgent = try #require(finder.reach("urgent").witness)
        #expect(urgent.path == ["intro", "fever", "temperature", "danger-signs", "urgent"])
        #expect(urgent.moves.last?.kind == .rule(0))
        let gp = try #require(finder.reach("see-gp").witness)
        #expect(gp.moves.last?.kind == .rule(1))
        guard case .object(let fields)? = gp.answers.first(where: { $0.step == "temperature" })?.value,
              case .string(let celsius)? = fields["celsius"], let value = Double(celsius) else {
            Issue.record("No temperature in \(gp.answers)")
            return
        }
        #expect(value >= 39)
        let selfCare = try #require(finder.reach("self-care").witness)
        #expect(selfCare.path.count == 4)
    }

    @Test("Every example's witness for a question writes each format's fields as the answers file does")
    func everyFormatFields() throws {
        let task = try Self.load(Repository.examples.appendingPathComponent("every-format.json"))
        let witness = try #require(finder(task).reach("thanks").witness)
        let file = witness.answersFile
        guard case .object(let steps) = file else {
            Issue.record("Not an object: \(file)")
            return
        }
        #expect(steps["welcome"] == .object(JSONObject()))
        // Every question step was answered (nothing constrains them, so none is skipped).
        for step in task.steps where !step.questions.isEmpty {
            guard case .object(let fields)? = steps[step.identifier] else {
                Issue.record("\(step.identifier) has \(String(describing: steps[step.identifier]))")
                continue
            }
            #expect(!fields.isEmpty, "\(step.identifier) has no fields")
        }
    }

    /// The surveys of the fixtures that have navigation, skip or visibility rules.
    static func fixtureSurveys() throws -> [(name: String, task: SurveyTask)] {
        var surveys: [(name: String, task: SurveyTask)] = []
        let cases = try JSONParser.parse(Data(contentsOf: Repository.fixtures.appendingPathComponent("warning-surveys.json")))
        if case .array(let entries) = cases {
            for case .object(let entry) in entries {
                guard case .string(let name)? = entry["name"], let survey = entry["survey"] else { continue }
                let data = JSONWriter.data(survey)
                guard let task = try? SurveyLoader.load(data).task, task.isNavigable else { continue }
                surveys.append((name, task))
            }
        }
        for folder in ["steps", "formats"] {
            for url in Repository.jsonFiles(in: Repository.fixtures.appendingPathComponent(folder)) {
                guard let task = try? Self.load(url),
                      task.isNavigable || task.steps.contains(where: { $0.questions.contains { $0.visibleIf != nil } }) else { continue }
                surveys.append((folder + "/" + url.lastPathComponent, task))
            }
        }
        return surveys
    }

    @Test("On the fixtures with rules, each witness leads to its step and no random run reaches a step called unreachable")
    func fixtures() throws {
        let surveys = try Self.fixtureSurveys()
        #expect(surveys.count >= 8)
        var random = SeededGenerator(seed: 7)
        for (name, task) in surveys {
            let memo = SolverMemo()
            let reaches = finder(task).reachability(memo: memo)
            #expect(memo.mismatches == 0, "\(name)")
            let walker = RandomWalker(task: task)
            var walked: Set<String> = []
            for _ in 0..<100 { walked.formUnion(walker.walk(using: &random)) }
            for step in task.steps {
                switch reaches[step.identifier] {
                case .reachable(let witness)?:
                    #expect(replay(witness.answersFile, in: task, until: step.identifier) == witness.path, "\(name): \(step.identifier)")
                case .unreachable(let reason)?:
                    #expect(!walked.contains(step.identifier), "\(name): \(step.identifier) is \(reason) but a run reached it")
                case nil:
                    Issue.record("\(name): no answer for \(step.identifier)")
                }
            }
        }
    }

    @Test("The fixtures' unreachable steps are the ones the checker warns about")
    func fixtureWarnings() throws {
        let surveys = Dictionary(try Self.fixtureSurveys().map { ($0.name, $0.task) }, uniquingKeysWith: { first, _ in first })
        let unreachable = try #require(surveys["unreachable step"])
        #expect(finder(unreachable).reach("b").reason == .noPath)
        #expect(finder(unreachable).reach("c").witness?.path == ["a", "c"])
        // A rule that tests a step not yet answered never fires, so its destination comes only in order.
        let later = try #require(surveys["rule tests a later step"])
        #expect(finder(later).reach("c").witness?.path == ["a", "b", "c"])
    }
}
