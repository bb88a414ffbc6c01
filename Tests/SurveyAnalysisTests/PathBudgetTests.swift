import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("The path search within a budget")
struct PathBudgetTests {
    /// `count` yes/no questions, two of every three passed over when the one before was answered
    /// no (as a Questionnaire's enableWhen reads), then a completion step: each step's path needs
    /// as many conditions as steps before it, so the work grows with the cube of the length.
    static func chain(_ count: Int) -> SurveyTask {
        var steps: [Step] = []
        var skips: [(stepIdentifier: String, predicate: Predicate)] = []
        for position in 0..<count {
            steps.append(Step(identifier: "q\(position)", kind: .question(QuestionContent(answerFormat: .boolean(BooleanFormat()))),
                              optional: true))
            if position > 0, position % 3 != 0 {
                skips.append(("q\(position)", .equals(ResultSelector("q\(position - 1)"), .bool(false))))
            }
        }
        steps.append(Step(identifier: "done", kind: .completion))
        return SurveyTask(identifier: "chain", steps: steps, skipRules: skips)
    }

    @Test("A map of three thousand steps stops at its budget, saying where it stopped")
    func largeSurveyStops() {
        let task = Self.chain(3000)
        let map = PathMap(finder: finder(task), budget: .page)
        #expect(map.stoppedEarly)
        #expect(map.checked < task.steps.count)
        #expect(map.firstUnchecked == task.steps[map.checked].identifier)
        #expect(map.entries.count == map.checked)
        // What was checked is true: the steps before the stop are reached.
        #expect(map.entries["q0"]?.reach.witness?.path == ["q0"])
    }

    @Test("A search for one step runs out of work rather than time when the work is what is small")
    func workLimit() {
        let task = Self.chain(300)
        let stopped = finder(task).reach("done", within: PathBudget(work: 1_000, time: nil))
        #expect(stopped == nil)
        let found = finder(task).reach("q5", within: PathBudget(work: 1_000_000, time: nil))
        #expect(found?.witness?.path.last == "q5")
    }

    @Test("The map of every example is complete and says what the unbounded search says",
          arguments: Repository.exampleNames())
    func examplesUnchanged(name: String) throws {
        let task = try SurveyLoader.load(contentsOf: Repository.examples.appendingPathComponent(name)).task
        let map = PathMap(finder: finder(task), budget: .page)
        #expect(!map.stoppedEarly)
        #expect(map.checked == task.steps.count)
        let reaches = finder(task).reachability()
        let graph = RuleGraph(task: task)
        let alwaysShown = graph.alwaysShown(in: task)
        for step in task.steps {
            let entry = try #require(map.entries[step.identifier], "\(name): \(step.identifier) not checked")
            #expect(entry.reach.witness?.path == reaches[step.identifier]?.witness?.path, "\(name): \(step.identifier)")
            #expect(entry.reach.reason == reaches[step.identifier]?.reason)
            guard entry.reach.witness != nil else { continue }
            #expect(entry.alwaysShown == alwaysShown.contains(step.identifier), "\(name): \(step.identifier)")
            if !entry.alwaysShown {
                #expect(entry.severalWaysIn == graph.hasSeveralWaysIn(to: step.identifier, in: task), "\(name): \(step.identifier)")
            }
        }
    }
}
