import Foundation
import JSON

/// A repeating form's own moves: an instance saved to the list, "add another?", Change,
/// Remove and its confirmation (docs/repeats-and-grids.md). The visit keeps the instances
/// saved; `results` holds the one being answered, so its pages, checks and visibility rules
/// work as any form's do.
extension Navigator {
    /// A repeating form's visit starts on its first instance when it needs one, else on the list.
    func beginRepeat(_ visit: inout StepVisit, of step: Step, now: Date) {
        guard let repeating = step.repeating else { return }
        visit.instances = visit.instances ?? []
        visit.results = []
        visit.page = 0
        visit.removing = nil
        visit.instance = visit.instanceCount == 0 && repeating.minimum > 0 ? 0 : nil
        visit.instanceStart = visit.instance == nil ? nil : now
    }

    /// The instance's last page was sent: its answers join the list, which shows next.
    func saveInstance(_ run: inout TaskRun, visit index: Int, of step: Step, now: Date) {
        var visit = run.visits[index]
        guard let number = visit.instance else { return }
        let answers = dropHidden(visit.results, of: step, visit: visit, in: run, index: index, now: now)
        var instances = visit.instances ?? []
        if number < instances.count { instances[number] = answers } else { instances.append(answers) }
        visit.instances = instances
        visit.results = []
        visit.instance = nil
        visit.instanceStart = nil
        visit.page = 0
        run.visits[index] = visit
        run.cursor = index
    }

    /// A page of instance `number` was posted while the visit stood elsewhere (a browser's Back,
    /// another tab): the visit turns to that instance, so the answers land where they were typed.
    public func focus(_ run: TaskRun, visit index: Int, instance number: Int) -> TaskRun {
        guard run.visits.indices.contains(index), let step = step(of: run.visits[index]), step.repeating != nil else { return run }
        var run = run
        var visit = run.visits[index]
        guard visit.instance != number, number >= 0, number <= visit.instanceCount else { return run }
        visit.instance = number
        visit.removing = nil
        visit.instanceStart = nil
        visit.results = number < visit.instanceCount ? visit.instances![number] : []
        run.visits[index] = visit
        return run
    }

    /// A button of the list page or of a removal's confirmation. The list page's Continue takes
    /// a yes or no to "add another?" while more may be added, and leaves the step only with at
    /// least the fewest instances it needs.
    public func act(_ action: RepeatAction, on run: TaskRun, visit index: Int, fields: FormFields, now: Date,
                    returnToCurrent: Bool = false) -> SubmissionOutcome {
        guard !run.isFinished, run.visits.indices.contains(index), index <= run.cursor,
              let step = step(of: run.visits[index]), let repeating = step.repeating else { return .accepted(run) }
        var run = run
        let returnTarget = returnToCurrent ? run.cursor : nil
        var visit = run.visits[index]
        let count = visit.instanceCount
        switch action {
        case .another:
            if count < repeating.maximum {
                switch fields[RepeatAction.anotherField] {
                case "yes":
                    visit.instance = count
                    visit.instanceStart = now
                    visit.results = []
                    visit.page = 0
                    visit.removing = nil
                    run.visits[index] = visit
                    run.cursor = index
                    return .accepted(run)
                case "no":
                    break
                default:
                    return .rejected([AnswerIssue(field: RepeatAction.anotherField, code: .required, problem: .catalogEntry("repeatAnswerAnother"))])
                }
            }
            if count < repeating.minimum {
                return .rejected([AnswerIssue(field: RepeatAction.anotherField, code: .outOfRange, problem: .instancesAtLeast(repeating.minimum))])
            }
            visit.instance = nil
            visit.instanceStart = nil
            visit.removing = nil
            visit.results = []
            visit.page = 0
            visit.isAnswered = true
            visit.endDate = now
            run.visits[index] = visit
            run.cursor = index
            advance(&run, from: index, now: now)
            refreshCalculated(&run, after: index, now: now)
            passOverSilentSteps(&run, now: now)
            if let returnTarget { fastForward(&run, toward: returnTarget, now: now) }
            return .accepted(run)
        case .change(let number):
            guard number < count else { return .accepted(run) }
            visit.instance = number
            visit.instanceStart = now
            visit.results = visit.instances![number]
            visit.page = 0
            visit.removing = nil
        case .remove(let number):
            guard number < count else { return .accepted(run) }
            visit.removing = number
            visit.instance = nil
            visit.instanceStart = nil
            visit.results = []
        case .confirmRemove(let number, let confirmed):
            visit.removing = nil
            if confirmed, number < count { visit.instances!.remove(at: number) }
            // A list that needs an instance and has none asks for one at once.
            if visit.instanceCount == 0, repeating.minimum > 0 {
                visit.instance = 0
                visit.instanceStart = now
                visit.results = []
                visit.page = 0
            }
        }
        run.visits[index] = visit
        run.cursor = index
        return .accepted(run)
    }

    /// Back within a repeating form: from an instance's first page to the list (what it held
    /// unsaved is dropped), from a removal's confirmation to the list; nil when Back leaves the step.
    func backWithinRepeat(_ visit: StepVisit, of step: Step) -> StepVisit? {
        guard step.repeating != nil else { return nil }
        var visit = visit
        switch visit.repeatPlace {
        case .removing:
            visit.removing = nil
        case .instance where visit.instanceCount > 0:
            visit.instance = nil
            visit.instanceStart = nil
            visit.results = []
            visit.page = 0
        default:
            return nil
        }
        return visit
    }

    /// A kept repeating visit is whole when it was left on its list with enough instances.
    func isCompleteRepeat(_ visit: StepVisit, of step: Step) -> Bool {
        guard let repeating = step.repeating else { return false }
        return visit.isAnswered && visit.instance == nil && visit.removing == nil && visit.instanceCount >= repeating.minimum
    }
}
