import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Walks a survey with an answers file the way `survey simulate --answers` does (one entry per
/// step, "$skip" presses Skip, a missing entry is submitted empty), until it shows `target`.
/// Returns the steps shown, or nil when the run ends, an answer is refused, or it goes on too long.
func replay(_ answers: JSONValue, in task: SurveyTask, until target: String, now: Date = referenceNow) -> [String]? {
    guard case .object(let script) = answers else { return nil }
    let navigator = Navigator(task: task, timeZone: utc)
    var clock = now
    var run = navigator.start(now: clock)
    for _ in 0..<500 {
        guard !run.isFinished || run.current?.stepIdentifier == target, let step = navigator.currentStep(run) else { return nil }
        if step.identifier == target { return run.path.map(\.stepIdentifier) }
        clock.addTimeInterval(1)
        let entry = script[step.identifier]
        if navigator.pendingAllocation(run) != nil {
            run = navigator.assign(arm: navigator.scriptedArm(entry, of: step), in: run, now: clock)
            continue
        }
        if entry == .string("$skip") {
            run = navigator.skip(run, visit: run.cursor, now: clock)
            continue
        }
        let context = AnswerContext(language: nil, now: clock, timeZone: utc)
        guard case .accepted(let next) = navigator.answer(run, visit: run.cursor, fields: navigator.scriptedFields(entry, of: step, in: run), context: context) else {
            return nil
        }
        run = next
    }
    return nil
}

/// A small, fast, seeded generator (SplitMix64), so a failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}

/// Every test a survey's rules, skip rules and visibility rules make, by the question tested.
func testsByQuestion(in task: SurveyTask) -> [QuestionKey: [Predicate]] {
    var predicates: [Predicate] = task.skipRules.map(\.predicate)
    for entry in task.navigationRules {
        if case .predicate(let rules, _) = entry.rule { predicates += rules.map(\.predicate) }
    }
    for step in task.steps { predicates += step.questions.compactMap(\.visibleIf) }
    var tests: [QuestionKey: [Predicate]] = [:]
    func collect(_ predicate: Predicate) {
        switch predicate {
        case .not(let inner): collect(inner)
        case .all(let parts), .any(let parts): parts.forEach(collect)
        default:
            if let selector = predicate.selectors.first { tests[QuestionKey(selector), default: []].append(predicate) }
        }
    }
    predicates.forEach(collect)
    return tests
}

/// Runs of a survey with random answers drawn from the solver's own candidate sets (every
/// test's values, beside and between) and random skips: the steps each run shows.
struct RandomWalker {
    let task: SurveyTask
    let navigator: Navigator
    let candidates: AnswerCandidates
    let tests: [QuestionKey: [Predicate]]

    init(task: SurveyTask) {
        self.task = task
        navigator = Navigator(task: task, timeZone: utc)
        candidates = AnswerCandidates(context: AnswerContext(language: nil, now: referenceNow, timeZone: utc))
        tests = testsByQuestion(in: task)
    }

    func walk(using random: inout SeededGenerator, maximumMoves: Int = 60) -> Set<String> {
        var clock = referenceNow
        var run = navigator.start(now: clock)
        var shown: Set<String> = []
        for _ in 0..<maximumMoves {
            guard let visit = run.current, let step = navigator.step(of: visit) else { break }
            shown.insert(step.identifier)
            if run.isFinished { break }
            clock.addTimeInterval(1)
            if step.isOptional, random.chance(0.2) {
                run = navigator.skip(run, visit: run.cursor, now: clock)
                continue
            }
            let context = AnswerContext(language: nil, now: clock, timeZone: utc)
            var pairs: [(String, String)] = []
            for question in navigator.visibleQuestions(of: step, page: visit.page, visit: visit, in: run, index: run.cursor) {
                let key = QuestionKey(step: step.identifier, question: question.identifier)
                let options = candidates.answers(for: question, tests: tests[key] ?? [])
                if question.isOptional, random.chance(0.15) { continue }
                guard let answer = options.randomElement(using: &random) else { continue }
                pairs += AnswerFields.fields(for: answer, format: question.answerFormat, name: question.identifier, context: context)
            }
            switch navigator.answer(run, visit: run.cursor, fields: FormFields(pairs: pairs), context: context) {
            case .accepted(let next):
                run = next
            case .rejected:
                if step.isOptional { run = navigator.skip(run, visit: run.cursor, now: clock) } else { return shown }
            }
        }
        return shown
    }
}

extension Reach {
    var witness: Witness? {
        if case .reachable(let witness) = self { return witness }
        return nil
    }

    var reason: UnreachableReason? {
        if case .unreachable(let reason) = self { return reason }
        return nil
    }
}

/// A path finder at the tests' fixed instant, in UTC.
func finder(_ task: SurveyTask) -> PathFinder {
    PathFinder(task: task, timeZone: utc, now: referenceNow)
}
