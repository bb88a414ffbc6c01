import Foundation
import JSON
import SurveyCore

/// Each question of one run as an export sees it: the answer on the run's final path, or why
/// there is none. A run that went back and changed a branch has only its final path here, as
/// in its result.
public struct RunAnswers: Sendable {
    public enum Outcome: Sendable, Hashable {
        case answered(QuestionResult)
        case missing(MissingReason)
    }

    public let run: TaskRun
    /// The last visit of each step on the path, by step identifier.
    private let lastVisit: [String: StepVisit]
    /// The steps a run that has not completed could still arrive at from where it stopped.
    private let ahead: Set<String>

    /// - Parameter ahead: the steps reachable from where the run stopped (see `Exporting.ahead`);
    ///   only read when the run has not completed.
    init(run: TaskRun, ahead: Set<String>) {
        self.run = run
        var last: [String: StepVisit] = [:]
        for visit in run.path { last[visit.stepIdentifier] = visit }
        lastVisit = last
        self.ahead = ahead
    }

    /// - Parameters:
    ///   - instance: for a repeating form's item, the instance (from 1); one the run does not
    ///     have was not shown.
    ///   - count: the repeating form's count of instances rather than a question.
    public func outcome(step: String, question: String, instance: Int? = nil, count: Bool = false) -> Outcome {
        guard let visit = lastVisit[step] else {
            if run.finishReason == .completed { return .missing(.notShown) }
            return .missing(ahead.contains(step) ? .notReached : .notShown)
        }
        if count {
            guard visit.isAnswered || visit.instanceCount > 0 else { return .missing(.notReached) }
            return .answered(QuestionResult(identifier: step, type: .numeric, startDate: visit.startDate, endDate: visit.endDate ?? visit.startDate,
                                            answer: .numeric(Double(visit.instanceCount))))
        }
        if let instance {
            guard let instances = visit.instances, instances.indices.contains(instance - 1) else { return .missing(.notShown) }
            guard let result = instances[instance - 1].first(where: { $0.identifier == question }) else { return .missing(.notShown) }
            switch result.answer {
            case nil: return .missing(.skipped)
            case .dontKnow?: return .missing(.dontKnow)
            case .some: return .answered(result)
            }
        }
        guard let result = visit.result(question) else {
            // A step that was submitted without the item: `visibleIf` hid it. A step still
            // showing (where a saved or left run stopped) was not answered yet.
            return .missing(visit.isAnswered ? .notShown : .notReached)
        }
        switch result.answer {
        case nil: return .missing(.skipped)
        case .dontKnow?: return .missing(.dontKnow)
        case .some: return .answered(result)
        }
    }
}
