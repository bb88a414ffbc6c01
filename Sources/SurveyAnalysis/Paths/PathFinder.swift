import Foundation
import JSON
import SurveyCore

/// Finds, for a step, answers that lead a participant there, or shows why none do.
///
/// The search walks simple paths (no step shown twice) from the first step through the
/// moves of the `RuleGraph`, shortest first, keeping only steps from which the target can
/// still be reached, and one of the paths that agree on all the rest can depend on
/// (`PathRelevance`). Each move adds its condition, and each step arrived at adds its skip
/// rule, negated when the step is shown or as it is when it is passed over, all read as
/// formulas over the answers that exist at that point (a test on a result not yet given is
/// false, as the navigator reads it). A path is dropped as soon as its conditions have no
/// answers together (`ConditionSolver`). The answers found are written as form fields and
/// checked by walking the real `Navigator` to the target.
///
/// Limits: a step reached only by going round a loop (showing a step twice) is not found,
/// since the answers file holds one answer per step; a text tested by a regular expression
/// is tried only with the strings its pattern spells out (`RegexExamples`); a path whose
/// conditions take more than `ConditionSolver.nodeLimit` nodes to decide is taken as
/// impossible, and a search stops after `stateLimit` paths. All the searches of one
/// computation share a `PathBudget` of work (and, for a page, a deadline); what it did not
/// reach is left unsaid rather than guessed (`reach(_:within:)`, `PathMap`).
public struct PathFinder: Sendable {
    public let task: SurveyTask
    /// The zone in which date answers and predicates are read.
    public let timeZone: TimeZone
    let graph: RuleGraph
    let index: QuestionIndex
    let navigator: Navigator
    let relevance: PathRelevance
    /// The instant the answers are given at (days around today, birth years).
    let now: Date
    /// The paths one search may extend before it stops.
    var stateLimit = 50_000

    public init(task: SurveyTask, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.init(task: task, timeZone: timeZone, now: Date())
    }

    init(task: SurveyTask, timeZone: TimeZone, now: Date) {
        self.task = task
        self.timeZone = timeZone
        self.now = now
        graph = RuleGraph(task: task)
        index = QuestionIndex(task: task)
        navigator = Navigator(task: task, timeZone: timeZone)
        relevance = PathRelevance(task: task, graph: graph)
    }

    public func reach(_ step: String) -> Reach {
        search(for: step, memo: SolverMemo())
    }

    /// `reach` within a budget: nil when the budget ran out before the search could say.
    public func reach(_ step: String, within budget: PathBudget) -> Reach? {
        search(for: step, memo: SolverMemo(), meter: PathMeter(budget))
    }

    /// `reach` for every step, computed once.
    public func reachability() -> [String: Reach] {
        reachability(memo: SolverMemo())
    }

    /// `reachability()` with the solver's memory given, so that a test can read what it counted.
    func reachability(memo: SolverMemo) -> [String: Reach] {
        let meter = PathMeter(.command)
        var reaches: [String: Reach] = [:]
        for step in task.steps where reaches[step.identifier] == nil {
            guard let found = search(for: step.identifier, memo: memo, meter: meter) else {
                memo.exhausted = true
                break
            }
            reaches[step.identifier] = found
        }
        return reaches
    }

    /// The context answers are written and read in.
    var answerContext: AnswerContext {
        AnswerContext(language: nil, now: now, timeZone: timeZone)
    }

    func solver(_ memo: SolverMemo) -> ConditionSolver {
        ConditionSolver(index: index, candidates: AnswerCandidates(context: answerContext), memo: memo)
    }
}
