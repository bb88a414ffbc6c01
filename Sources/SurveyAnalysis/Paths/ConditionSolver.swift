import Foundation
import JSON
import SurveyCore

/// What a path does at one step: the answers its conditions need (nil: no answer), and
/// whether the step is passed with Skip.
struct StepChoice: Hashable, Sendable {
    var answers: [QuestionKey: Answer?]
    var skipped: Bool
}

/// What the solver remembers across the conditions of one search: the candidate answers of
/// each question under each set of tests, and each step's choice under each set of literals;
/// and, for the search itself, what can follow each step.
final class SolverMemo {
    struct StepLiterals: Hashable {
        let step: String
        let literals: Set<AnswerLiteral>
    }

    struct Tests: Hashable {
        let key: QuestionKey
        let tests: Set<Predicate>
    }

    var steps: [StepLiterals: StepChoice?] = [:]
    var candidates: [Tests: [Answer]] = [:]
    /// Search nodes spent on the current conditions.
    var nodes = 0
    /// True once some conditions were given up on because they took too long to decide.
    var exhausted = false
    /// Answers the solver found that the navigator did not follow to the target: a fault
    /// in the solver, counted so that tests can see it.
    var mismatches = 0
    /// What the rest of a path from each step can see, worked out when first needed.
    var futures: [String: PathRelevance.Future] = [:]
}

/// Finds answers that make a conjunction of conditions hold, or shows there are none.
///
/// The conditions are expanded into disjuncts of literals lazily, a disjunction at a time,
/// and a branch is dropped as soon as the literals it holds on some step have no answers
/// together; the literals on one question are decided by trying its candidate answers. So
/// the work follows the branches that survive, not the size of the full expansion.
struct ConditionSolver {
    let index: QuestionIndex
    let candidates: AnswerCandidates
    let memo: SolverMemo
    /// The nodes one call may spend before it gives up (and answers "none").
    var nodeLimit = 20_000

    /// A choice for each step the conditions test, or nil when no answers satisfy them all.
    func solve(_ conditions: [AnswerFormula]) -> [String: StepChoice]? {
        memo.nodes = 0
        return search(pending: conditions, literals: [:], choices: [:])
    }

    /// Takes every conjunct and literal of `pending` at once, then branches on a disjunction
    /// left, depth first.
    private func search(pending given: [AnswerFormula], literals required: [String: Set<AnswerLiteral>],
                        choices chosen: [String: StepChoice]) -> [String: StepChoice]? {
        memo.nodes += 1
        if memo.nodes > nodeLimit {
            memo.exhausted = true
            return nil
        }
        var pending = given
        var literals = required
        var choices = chosen
        var disjunctions: [[AnswerFormula]] = []
        while let formula = pending.popLast() {
            switch formula {
            case .constant(true):
                continue
            case .constant(false):
                return nil
            case .all(let parts):
                pending += parts
            case .any(let options):
                disjunctions.append(options)
            case .literal(let literal):
                var stepLiterals = literals[literal.key.step] ?? []
                guard stepLiterals.insert(literal).inserted else { continue }
                if stepLiterals.contains(literal.negated) { return nil }
                guard let choice = choose(literal.key.step, stepLiterals) else { return nil }
                literals[literal.key.step] = stepLiterals
                choices[literal.key.step] = choice
            }
        }
        // A disjunction one of whose literals is already required holds already.
        disjunctions.removeAll { options in
            options.contains { option in
                if case .literal(let literal) = option { return literals[literal.key.step]?.contains(literal) == true }
                return false
            }
        }
        // Branch where there are fewest ways on.
        guard let narrowest = disjunctions.indices.min(by: { disjunctions[$0].count < disjunctions[$1].count }) else { return choices }
        let options = disjunctions.remove(at: narrowest)
        let rest = disjunctions.map(AnswerFormula.any)
        for option in options {
            if let found = search(pending: rest + [option], literals: literals, choices: choices) { return found }
            if memo.nodes > nodeLimit { return nil }
        }
        return nil
    }

    /// Answers for one step's questions that satisfy its literals: each question answered
    /// (no answer only where the question is optional), or else the whole step skipped.
    func choose(_ stepIdentifier: String, _ literals: Set<AnswerLiteral>) -> StepChoice? {
        let memoKey = SolverMemo.StepLiterals(step: stepIdentifier, literals: literals)
        if let known = memo.steps[memoKey] { return known }
        let choice = decide(stepIdentifier, literals)
        memo.steps[memoKey] = choice
        return choice
    }

    private func decide(_ stepIdentifier: String, _ literals: Set<AnswerLiteral>) -> StepChoice? {
        guard let step = index.task.step(stepIdentifier) else { return nil }
        let byQuestion = Dictionary(grouping: literals, by: \.key)
        var chosen: [QuestionKey: Answer?] = [:]
        var answered = true
        for (key, group) in byQuestion {
            guard let question = index.questions[key] else { return nil }
            let tests = Set(group.map(\.test))
            if let answer = answers(for: question, key: key, tests: tests).first(where: { candidate in
                group.allSatisfy { holds($0, on: candidate, question) }
            }) {
                chosen[key] = .some(answer)
            } else if question.isOptional, group.allSatisfy({ holds($0, on: nil, question) }) {
                chosen[key] = .some(nil)
            } else {
                answered = false
                break
            }
        }
        if answered {
            // A question step left without an answer is the same as one skipped: say so.
            let isQuestion: Bool = { if case .question = step.kind { return true }; return false }()
            let empty = !chosen.isEmpty && chosen.values.allSatisfy { $0 == nil }
            return StepChoice(answers: chosen, skipped: isQuestion && empty && step.isOptional)
        }
        guard step.isOptional, !step.questions.isEmpty else { return nil }
        for (key, group) in byQuestion {
            guard let question = index.questions[key], group.allSatisfy({ holds($0, on: nil, question) }) else { return nil }
        }
        return StepChoice(answers: byQuestion.mapValues { _ in Answer?.none }, skipped: true)
    }

    /// The candidate answers of a question under some tests, remembered.
    func answers(for question: Step.Question, key: QuestionKey, tests: Set<Predicate>) -> [Answer] {
        let memoKey = SolverMemo.Tests(key: key, tests: tests)
        if let known = memo.candidates[memoKey] { return known }
        let found = candidates.answers(for: question, tests: Array(tests))
        memo.candidates[memoKey] = found
        return found
    }

    /// Whether a literal holds when the question has this answer, read by the real predicate evaluation.
    func holds(_ literal: AnswerLiteral, on answer: Answer?, _ question: Step.Question) -> Bool {
        let instant = candidates.context.now
        let zone = candidates.context.timeZone
        let result = QuestionResult.make(for: question, answer: answer, startDate: instant, endDate: instant, timeZone: zone)
        let taskResult = TaskResult(identifier: index.task.identifier, taskRunUUID: Self.runIdentifier, startDate: instant, endDate: instant,
                                    finishReason: nil,
                                    results: [StepResult(identifier: literal.key.step, startDate: instant, endDate: instant, results: [result])])
        return literal.test.evaluate(on: taskResult, timeZone: zone) == literal.holds
    }

    static let runIdentifier = UUID(uuidString: "00000000-0000-4000-8000-000000000000")!
}
