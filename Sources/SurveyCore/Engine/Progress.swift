import Foundation
import JSON

/// "2 of 5": the step's position among the steps that count, as ResearchKit reports it.
public struct StepProgress: Sendable, Hashable, CustomStringConvertible {
    public let current: Int
    public let total: Int
    public var description: String { "\(current) of \(total)" }
}

extension Navigator {
    /// The progress label for a step, or nil when none shows.
    ///
    /// The steps that count are those with `showsProgress`, except an instruction-like step
    /// that is first or last in the array; the label shows only when the task reports
    /// progress, the step counts and more than one step does (ORKOrderedTask's rules; a step
    /// that shows nothing never counts;
    /// navigable tasks report the same linear count when `shouldReportProgress` is set).
    public func progress(of step: Step) -> StepProgress? {
        guard task.reportsProgress, step.reportsProgress else { return nil }
        let last = task.steps.count - 1
        let counted = task.steps.enumerated().filter { index, candidate in
            candidate.reportsProgress && !candidate.showsNothing && !(candidate.isInstructionLike && (index == 0 || index == last))
        }.map(\.element.identifier)
        guard counted.count > 1, let position = counted.firstIndex(of: step.identifier) else { return nil }
        return StepProgress(current: position + 1, total: counted.count)
    }

    /// The progress of a step as a run shows it: within a block, the place the run's order gives it.
    public func progress(of step: Step, in run: TaskRun) -> StepProgress? {
        guard let index = task.index(of: step.identifier), let place = blockPlaces[index],
              let order = run.blockOrders?[task.blocks[place.block].identifier], let shownAt = order.firstIndex(of: place.position),
              blockMembers[place.block].indices.contains(shownAt) else { return progress(of: step) }
        return progress(of: task.steps[blockMembers[place.block][shownAt]])
    }

    /// True when a step's place, and so its progress, depends on the run (it is in a block).
    public func isInBlock(_ step: Step) -> Bool {
        task.index(of: step.identifier).map { blockPlaces[$0] != nil } ?? false
    }

    public func progress(_ run: TaskRun) -> StepProgress? {
        currentStep(run).flatMap(progress(of:))
    }

    /// "Get Started" on the last of the opening instruction steps, "Done" where no step can
    /// follow, "Next" elsewhere (and on every page of a form but its last).
    public func continueLabel(_ run: TaskRun) -> ContinueLabel {
        guard let visit = run.current, let step = step(of: visit), let index = task.index(of: step.identifier) else { return .done }
        if step.isCompletion { return .done }
        if visit.page < pages(of: step).count - 1 { return .next }
        if step.isInstructionLike, index + 1 < task.steps.count, !task.steps[index + 1].isInstructionLike,
           task.steps[0...index].allSatisfy({ $0.isInstructionLike && !$0.isCompletion }) {
            return .getStarted
        }
        let next = index + 1 < task.steps.count ? index + 1 : nil
        if let rule = task.navigationRule(for: step.identifier) {
            let leadsOn = rule.possibleDestinations.contains { destination in
                switch destination {
                case nil: return next != nil
                case .end?: return false
                case .step?: return true
                }
            }
            return leadsOn ? .next : .done
        }
        return next == nil ? .done : .next
    }
}
