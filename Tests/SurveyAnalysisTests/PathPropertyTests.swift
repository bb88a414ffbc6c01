import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import Testing

/// The solver against the navigator on random surveys: what it calls reachable its answers
/// reach, and what it calls unreachable no random run reaches.
@Suite("Path finding on random surveys")
struct PathPropertyTests {
    static let surveys = 200
    static let walks = 40

    @Test("Every step called reachable is reached by its witness answers, through the real navigator",
          arguments: [false, true])
    func witnessesReach(loops: Bool) {
        var reachable = 0
        for seed in 0..<UInt64(Self.surveys) {
            let task = RandomSurveys.make(seed: seed, loops: loops)
            let memo = SolverMemo()
            let reaches = finder(task).reachability(memo: memo)
            #expect(memo.mismatches == 0, "seed \(seed): the navigator did not follow \(memo.mismatches) answers")
            for step in task.steps {
                guard let witness = reaches[step.identifier]?.witness else { continue }
                reachable += 1
                let shown = replay(witness.answersFile, in: task, until: step.identifier)
                #expect(shown == witness.path, "seed \(seed), loops \(loops): \(step.identifier) via \(witness.path)")
            }
        }
        #expect(reachable > Self.surveys * 3)
    }

    @Test("No random run reaches a step called unreachable (surveys without loops)")
    func unreachableStaysUnreached() {
        var random = SeededGenerator(seed: 2026)
        var unreachable = 0
        var reasons: Set<String> = []
        for seed in 0..<UInt64(Self.surveys) {
            let task = RandomSurveys.make(seed: seed)
            let reaches = finder(task).reachability()
            let called = task.steps.map(\.identifier).filter { reaches[$0]?.reason != nil }
            guard !called.isEmpty else { continue }
            unreachable += called.count
            for step in called {
                switch reaches[step]?.reason {
                case .noPath?: reasons.insert("noPath")
                case .conditionsNeverHold?: reasons.insert("conditionsNeverHold")
                case .alwaysSkipped?: reasons.insert("alwaysSkipped")
                case nil: break
                }
            }
            let walker = RandomWalker(task: task)
            var shown: Set<String> = []
            for _ in 0..<Self.walks { shown.formUnion(walker.walk(using: &random)) }
            for step in called {
                #expect(!shown.contains(step), "seed \(seed): \(step) is \(String(describing: reaches[step]?.reason)) but a run showed it")
            }
        }
        // The generator makes every kind of unreachable step.
        #expect(unreachable > 20)
        #expect(reasons == ["noPath", "conditionsNeverHold", "alwaysSkipped"])
    }
}
