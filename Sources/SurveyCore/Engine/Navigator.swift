import Foundation
import JSON

/// The task's navigation as pure functions of (task, run): where the participant is, where
/// Next and Back lead, progress, and which form items show. ResearchKit's
/// `ORKNavigableOrderedTask` semantics, with stale answers dropped when the path changes.
public struct Navigator: Sendable {
    public let task: SurveyTask
    /// The zone in which date answers and predicates are read.
    public let timeZone: TimeZone
    private let pagesByStep: [String: [Range<Int>]]
    /// The survey's FHIRPath expressions, when it has any.
    let expressions: SurveyExpressions?
    /// True when the survey has a consent review: only then does a post look for a consent.
    public let takesConsent: Bool
    /// Where each step of a block stands in it (block index, written position).
    let blockPlaces: [Int: (block: Int, position: Int)]
    /// The step indices of each block, as written.
    let blockMembers: [[Int]]

    public init(task: SurveyTask, timeZone: TimeZone? = nil) {
        self.task = task
        expressions = SurveyExpressions(task: task)
        takesConsent = task.steps.contains { $0.isConsentReview }
        self.timeZone = timeZone ?? task.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
        var pages: [String: [Range<Int>]] = [:]
        for step in task.steps {
            switch step.kind {
            case .form(let content):
                pages[step.identifier] = FormLayout.pages(of: content.items, in: step.identifier)
            case .visualConsent:
                pages[step.identifier] = (task.consentDocument?.visualSections.indices).map { $0.map { $0..<$0 } } ?? []
            case .consentReview:
                pages[step.identifier] = [0..<0, 0..<0]
            default:
                break
            }
        }
        pagesByStep = pages
        var places: [Int: (block: Int, position: Int)] = [:]
        var members: [[Int]] = []
        for (blockIndex, block) in task.blocks.enumerated() {
            let indices = block.steps.compactMap(task.index(of:))
            for (position, index) in indices.enumerated() { places[index] = (blockIndex, position) }
            members.append(indices)
        }
        blockPlaces = places
        blockMembers = members
    }

    // MARK: Looking up

    public func step(of visit: StepVisit) -> Step? {
        task.step(visit.stepIdentifier)
    }

    public func currentStep(_ run: TaskRun) -> Step? {
        run.current.flatMap(step(of:))
    }

    /// The item ranges of each page of a form; one page for every other step.
    public func pages(of step: Step) -> [Range<Int>] {
        guard let pages = pagesByStep[step.identifier], !pages.isEmpty else { return [0..<0] }
        return pages
    }

    // MARK: Results

    /// The step results along the path up to and including `index`.
    public func result(of run: TaskRun, through index: Int, now: Date) -> TaskResult {
        let visits = run.visits.isEmpty || index < 0 ? [] : Array(run.visits[0...min(index, run.visits.count - 1)])
        var result = TaskResult(
            identifier: task.identifier, taskRunUUID: run.taskRunUUID, startDate: run.startDate, endDate: run.endDate ?? now,
            finishReason: run.finishReason,
            results: visits.map { visit in
                var stepResult = StepResult(identifier: visit.stepIdentifier, startDate: visit.startDate, endDate: visit.endDate ?? now,
                                            results: visit.results)
                if let step = step(of: visit), case .consentReview(let content) = step.kind { stepResult.consentSignature = content.signature }
                stepResult.instances = visit.instances
                return stepResult
            })
        result.consent = run.consent
        addPanel(of: run, to: &result)
        return result
    }

    /// The run's result (spec §5): the step results of the path taken, in order.
    public func result(of run: TaskRun, now: Date) -> TaskResult {
        result(of: run, through: run.cursor, now: now)
    }

    // MARK: Moving

    /// A new run at the first step (skip rules apply to it too).
    /// Choices and blocks keep their written order: `start(uuid:now:parameters:)` draws a run's own.
    public func start(uuid: UUID = UUID(), now: Date) -> TaskRun {
        var run = TaskRun(taskIdentifier: task.identifier, taskRunUUID: uuid, startDate: now)
        begin(&run, now: now)
        return run
    }

    /// Puts a new run on its first step.
    func begin(_ run: inout TaskRun, now: Date) {
        let empty = result(of: run, through: -1, now: now)
        arrive(at: nextStepIndex(after: nil, evaluating: { empty }, orders: run.blockOrders), in: &run, now: now)
        passOverSilentSteps(&run, now: now)
    }


    /// The index of the step that follows `index` (nil: the start) on `result`, or nil at the end.
    ///
    /// The step's navigation rule gives the destination, else the next step in the array;
    /// a destination whose skip rule holds is passed over and its own rule applies, as in
    /// ResearchKit. A chain of skips that comes back on itself ends the task.
    func nextStepIndex(after index: Int?, result: TaskResult) -> Int? {
        nextStepIndex(after: index, evaluating: { result })
    }

    /// The same, with the result built only if a rule needs it (an ordered survey never does,
    /// so a step costs the same however long the path behind it).
    func nextStepIndex(after index: Int?, evaluating makeResult: () -> TaskResult, orders: [String: [Int]]? = nil) -> Int? {
        var built: TaskResult?
        func result() -> TaskResult {
            if let built { return built }
            let made = makeResult()
            built = made
            return made
        }
        var current = index
        var passedOver = Set<Int>()
        while true {
            let candidate: Int?
            if let current {
                if let rule = task.navigationRule(for: task.steps[current].identifier) {
                    switch destination(of: rule, on: result()) {
                    case .end?: return nil
                    case .step(let identifier)?: candidate = task.index(of: identifier)
                    case nil: candidate = successor(of: current, orders: orders)
                    }
                } else {
                    candidate = successor(of: current, orders: orders)
                }
            } else {
                candidate = successor(of: nil, orders: orders)
            }
            guard let next = candidate else { return nil }
            guard let skip = task.skipRule(for: task.steps[next].identifier),
                  skip.evaluate(on: result(), timeZone: timeZone, expression: judge(result(), step: task.steps[next])) else {
                return next
            }
            guard passedOver.insert(next).inserted else { return nil }
            current = next
        }
    }

    /// Where a rule leads on a result; nil means "the next step in the array".
    func destination(of rule: NavigationRule, on result: TaskResult) -> Destination? {
        switch rule {
        case .direct(let destination):
            return destination
        case .predicate(let rules, let fallback):
            for entry in rules where entry.predicate.evaluate(on: result, timeZone: timeZone, expression: judge(result, step: nil)) {
                return entry.destination
            }
            return fallback
        }
    }

    /// Appends a visit of the step at `index`, or completes the run when there is none.
    /// Arriving at a completion step completes the run too.
    private func arrive(at index: Int?, in run: inout TaskRun, now: Date) {
        guard let index else {
            finish(&run, reason: .completed, now: now)
            return
        }
        let step = task.steps[index]
        var visit = StepVisit(stepIdentifier: step.identifier, startDate: now)
        if step.isCompletion {
            visit.endDate = now
            visit.isAnswered = true
        }
        beginRepeat(&visit, of: step, now: now)
        run.visits.append(visit)
        run.cursor = run.visits.count - 1
        if step.isCompletion { finish(&run, reason: step.screensOut == true ? .screenedOut : .completed, now: now) }
    }

    /// Ends the run: the visits after the cursor leave with it.
    public func finish(_ run: inout TaskRun, reason: FinishReason, now: Date) {
        if run.visits.count > run.cursor + 1 { run.visits.removeSubrange((run.cursor + 1)...) }
        run.finishReason = reason
        run.endDate = now
    }

    /// Saves the answers of one page of visit `index` and moves on: to the form's next page,
    /// or to the next step. Submitting an earlier visit than the current one edits it (a
    /// browser's Back, or a Change link); visits after it stay only while the path still
    /// leads there.
    ///
    /// - Parameter returnToCurrent: after editing an earlier step, go forward again through
    ///   the kept visits as far as they stay on the path and complete (the review step's
    ///   Change links).
    public func submit(_ run: TaskRun, visit index: Int, results: [QuestionResult], now: Date, returnToCurrent: Bool = false) -> TaskRun {
        guard !run.isFinished, run.visits.indices.contains(index), index <= run.cursor,
              let step = step(of: run.visits[index]), step.allocation == nil else { return run }
        // A repeating form takes answers only for an instance; its list has buttons of its own.
        if step.repeating != nil, run.visits[index].instance == nil { return run }
        var run = run
        let returnTarget = returnToCurrent ? run.cursor : nil
        run.cursor = index
        var visit = run.visits[index]
        visit.results = merge(visit.results, with: results, in: step)
        let pages = pages(of: step)
        if let nextPage = nextVisiblePage(after: visit.page, of: step, visit: visit, in: run, index: index), nextPage < pages.count {
            visit.page = nextPage
            run.visits[index] = visit
            return run
        }
        if step.repeating != nil {
            run.visits[index] = visit
            saveInstance(&run, visit: index, of: step, now: now)
            return run
        }
        visit.results = dropHidden(visit.results, of: step, visit: visit, in: run, index: index, now: now)
        visit.isAnswered = true
        visit.endDate = now
        run.visits[index] = visit
        advance(&run, from: index, now: now)
        refreshCalculated(&run, after: index, now: now)
        passOverSilentSteps(&run, now: now)
        if let returnTarget { fastForward(&run, toward: returnTarget, now: now) }
        return run
    }

    /// The Skip button: every visible question of the step is recorded with no answer.
    public func skip(_ run: TaskRun, visit index: Int, now: Date) -> TaskRun {
        guard !run.isFinished, run.visits.indices.contains(index), index <= run.cursor,
              let step = step(of: run.visits[index]), step.isOptional, step.allocation == nil, step.repeating == nil else { return run }
        var run = run
        run.cursor = index
        passUnanswered(&run, visit: index, of: step, now: now)
        passOverSilentSteps(&run, now: now)
        return run
    }

    /// Records visit `index` with no answer but what the server works out, and moves on.
    private func passUnanswered(_ run: inout TaskRun, visit index: Int, of step: Step, now: Date) {
        var visit = run.visits[index]
        visit.results = unansweredResults(of: step, visit: visit, in: run, index: index, now: now)
        visit.page = 0
        visit.isAnswered = true
        visit.endDate = now
        run.visits[index] = visit
        advance(&run, from: index, now: now)
    }

    /// A result for each question that shows on any page, with no answer but what the server
    /// works out (calculated, read-only, hidden and initial values).
    private func unansweredResults(of step: Step, visit: StepVisit, in run: TaskRun, index: Int, now: Date) -> [QuestionResult] {
        var probe = visit
        probe.results = []
        var results: [QuestionResult] = []
        for page in pages(of: step).indices {
            probe.page = page
            for question in visibleQuestions(of: step, page: page, visit: probe, in: run, index: index) {
                var result = emptyResult(question, startDate: visit.startDate, now: now)
                if step.allocation != nil {
                    result.answer = run.arms?[step.identifier].map { .choices([.string($0)]) }
                } else if question.behaviour.isComputed {
                    var sofar = probe
                    sofar.results = results
                    result.answer = computedAnswer(for: question, of: step, on: evaluation(before: sofar, in: run, index: index), saved: nil)
                }
                results.append(result)
            }
        }
        return results
    }

    /// While the run stands on a step that shows nothing, records the step's answers and moves
    /// on, as if it had been sent at once. A chain of such steps that comes back on itself ends
    /// the run, as a chain of skips does.
    func passOverSilentSteps(_ run: inout TaskRun, now: Date) {
        var passed = 0
        while !run.isFinished, let step = run.current.flatMap(step(of:)), step.showsNothing {
            // An allocation step waits here until the server has drawn its arm.
            if step.allocation != nil, run.arms?[step.identifier] == nil { return }
            passed += 1
            guard passed <= task.steps.count else {
                finish(&run, reason: .completed, now: now)
                return
            }
            passUnanswered(&run, visit: run.cursor, of: step, now: now)
        }
    }

    /// The Back button: the previous page of a form, else the previous visit on the path.
    /// The answers of the step left stay, to fill its form if the participant returns.
    public func back(_ run: TaskRun, now: Date) -> TaskRun {
        guard canGoBack(run) else { return run }
        var run = run
        var visit = run.visits[run.cursor]
        if visit.page > 0, let step = step(of: visit) {
            visit.page = previousVisiblePage(before: visit.page, of: step, visit: visit, in: run, index: run.cursor) ?? 0
            run.visits[run.cursor] = visit
            return run
        }
        if let step = step(of: visit), let within = backWithinRepeat(visit, of: step) {
            run.visits[run.cursor] = within
            return run
        }
        if let previous = previousShownVisit(before: run.cursor, in: run) { run.cursor = previous }
        return run
    }

    /// True when Back leads somewhere: a previous page or visit, and the run is still going.
    public func canGoBack(_ run: TaskRun) -> Bool {
        guard !run.isFinished, let visit = run.current else { return false }
        if visit.page > 0 { return true }
        if let step = step(of: visit), backWithinRepeat(visit, of: step) != nil { return true }
        return previousShownVisit(before: run.cursor, in: run) != nil
    }

    /// The last visit before `index` whose step shows something.
    private func previousShownVisit(before index: Int, in run: TaskRun) -> Int? {
        var candidate = index - 1
        while candidate >= 0 {
            if step(of: run.visits[candidate])?.showsNothing != true { return candidate }
            candidate -= 1
        }
        return nil
    }

    func advance(_ run: inout TaskRun, from index: Int, now: Date) {
        guard let stepIndex = task.index(of: run.visits[index].stepIdentifier) else { return }
        let path = run
        let next = nextStepIndex(after: stepIndex, evaluating: { result(of: path, through: index, now: now) }, orders: run.blockOrders)
        if let next, run.visits.indices.contains(index + 1), run.visits[index + 1].stepIdentifier == task.steps[next].identifier,
           !task.steps[next].isCompletion {
            run.cursor = index + 1
            var kept = run.visits[index + 1]
            kept.page = 0
            beginRepeat(&kept, of: task.steps[next], now: now)
            run.visits[index + 1] = kept
            return
        }
        if run.visits.count > index + 1 { run.visits.removeSubrange((index + 1)...) }
        run.cursor = index
        arrive(at: next, in: &run, now: now)
    }

    /// Moves forward through kept visits that are complete and still on the path.
    func fastForward(_ run: inout TaskRun, toward target: Int, now: Date) {
        while !run.isFinished, run.cursor < target, run.cursor < run.visits.count - 1 {
            let index = run.cursor
            let visit = run.visits[index]
            guard visit.isAnswered, let step = step(of: visit), isComplete(visit, of: step, in: run, index: index, now: now) else { return }
            var updated = visit
            if step.repeating == nil { updated.results = dropHidden(visit.results, of: step, visit: visit, in: run, index: index, now: now) }
            run.visits[index] = updated
            advance(&run, from: index, now: now)
            passOverSilentSteps(&run, now: now)
        }
    }

    /// True when every visible required question of a kept visit has an answer.
    private func isComplete(_ visit: StepVisit, of step: Step, in run: TaskRun, index: Int, now: Date) -> Bool {
        if step.repeating != nil { return isCompleteRepeat(visit, of: step) }
        for page in pages(of: step).indices {
            var probe = visit
            probe.page = page
            for question in visibleQuestions(of: step, page: page, visit: probe, in: run, index: index) where !question.isOptional {
                if visit.result(question.identifier)?.answer == nil { return false }
            }
        }
        return true
    }

    // MARK: Forms and visibility

    /// The questions of a page that show, judged on the answers saved before: earlier steps
    /// and the earlier pages of this form.
    public func visibleQuestions(of step: Step, page: Int, visit: StepVisit, in run: TaskRun, index: Int) -> [Step.Question] {
        guard case .form(let content) = step.kind else { return step.questions(onPage: page) }
        let ranges = pages(of: step)
        guard ranges.indices.contains(page) else { return [] }
        // The answers the conditions are judged on, built once and only if a condition asks.
        var built: TaskResult?
        func evaluation() -> TaskResult {
            if let built { return built }
            var made = result(of: run, through: index - 1, now: visit.startDate)
            let ownIdentifiers = Set(ranges.prefix(page).flatMap { Array($0) }.compactMap { position -> String? in
                if case .question(let question) = content.items[position] { return question.identifier }
                return nil
            })
            made.results.append(StepResult(identifier: step.identifier, startDate: visit.startDate, endDate: visit.startDate,
                                           results: visit.results.filter { ownIdentifiers.contains($0.identifier) }))
            built = made
            return made
        }
        return ranges[page].compactMap { position -> Step.Question? in
            guard case .question(let question) = content.items[position] else { return nil }
            if let rule = question.visibleIf, !rule.evaluate(on: evaluation(), timeZone: timeZone, expression: judge(evaluation(), step: step)) {
                return nil
            }
            return question.asQuestion
        }
    }

    /// The items (section headers and visible questions) of a page, in order; a header whose
    /// questions are all hidden is left out.
    public func visibleItems(of step: Step, page: Int, visit: StepVisit, in run: TaskRun, index: Int) -> [FormItem] {
        guard case .form(let content) = step.kind else { return [] }
        let ranges = pages(of: step)
        guard ranges.indices.contains(page) else { return [] }
        let visible = Set(visibleQuestions(of: step, page: page, visit: visit, in: run, index: index).map(\.identifier))
        var items: [FormItem] = []
        var pendingHeader: FormItem?
        for position in ranges[page] {
            switch content.items[position] {
            case .section:
                pendingHeader = content.items[position]
            case .question(let question):
                guard visible.contains(question.identifier), !question.behaviour.isHidden else { continue }
                if let header = pendingHeader {
                    items.append(header)
                    pendingHeader = nil
                }
                items.append(content.items[position])
            case .note(let note):
                if let rule = note.visibleIf, !noteShows(rule, of: step, page: page, visit: visit, in: run, index: index) { continue }
                if let header = pendingHeader {
                    items.append(header)
                    pendingHeader = nil
                }
                items.append(content.items[position])
            }
        }
        return items
    }

    private func nextVisiblePage(after page: Int, of step: Step, visit: StepVisit, in run: TaskRun, index: Int) -> Int? {
        let count = pages(of: step).count
        // Only a form's pages can show nothing; every page of a consent step shows.
        guard case .form = step.kind else { return page + 1 < count ? page + 1 : nil }
        var candidate = page + 1
        while candidate < count {
            var probe = visit
            probe.page = candidate
            if !visibleQuestions(of: step, page: candidate, visit: probe, in: run, index: index).isEmpty { return candidate }
            candidate += 1
        }
        return nil
    }

    private func previousVisiblePage(before page: Int, of step: Step, visit: StepVisit, in run: TaskRun, index: Int) -> Int? {
        guard case .form = step.kind else { return max(page - 1, 0) }
        var candidate = page - 1
        while candidate > 0 {
            if !visibleQuestions(of: step, page: candidate, visit: visit, in: run, index: index).isEmpty { return candidate }
            candidate -= 1
        }
        return 0
    }

    /// Replaces the results of the submitted questions, keeping the step's item order.
    private func merge(_ existing: [QuestionResult], with new: [QuestionResult], in step: Step) -> [QuestionResult] {
        let replaced = Set(new.map(\.identifier))
        let combined = existing.filter { !replaced.contains($0.identifier) } + new
        let order = step.questions.map(\.identifier)
        return combined.sorted { (order.firstIndex(of: $0.identifier) ?? .max) < (order.firstIndex(of: $1.identifier) ?? .max) }
    }

    /// Keeps one result per visible question of every page (answered or not), dropping hidden ones.
    func dropHidden(_ results: [QuestionResult], of step: Step, visit: StepVisit, in run: TaskRun, index: Int, now: Date) -> [QuestionResult] {
        var kept: [QuestionResult] = []
        var probe = visit
        probe.results = results
        for page in pages(of: step).indices {
            probe.page = page
            for question in visibleQuestions(of: step, page: page, visit: probe, in: run, index: index) {
                kept.append(results.first { $0.identifier == question.identifier } ?? emptyResult(question, startDate: visit.answerStart, now: now))
            }
        }
        return kept
    }

    func emptyResult(_ question: Step.Question, startDate: Date, now: Date) -> QuestionResult {
        QuestionResult.make(for: question, answer: nil, startDate: startDate, endDate: now, timeZone: timeZone)
    }
}

extension QuestionResult {
    /// A result for a question with the keys its format adds (unit, separator, zone).
    public static func make(for question: Step.Question, answer: Answer?, startDate: Date, endDate: Date, timeZone: TimeZone) -> QuestionResult {
        var result = QuestionResult(identifier: question.identifier, type: question.answerFormat.resultType,
                                    startDate: startDate, endDate: endDate, answer: answer)
        question.answerFormat.rules.addResultKeys(to: &result, timeZone: timeZone)
        return result
    }
}
