import Foundation
import JSON

/// A run's whole result (ORKTaskResult): the step results along the path, in order.
public struct TaskResult: Sendable, Hashable {
    public var identifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    public var endDate: Date
    public var finishReason: FinishReason?
    public var results: [StepResult]
    /// The signed copy, countersignature and withdrawal of the run's consent, when it gave one.
    public var consent: ConsentStatus?

    public init(identifier: String, taskRunUUID: UUID, startDate: Date, endDate: Date, finishReason: FinishReason?, results: [StepResult]) {
        self.identifier = identifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDate = endDate
        self.finishReason = finishReason
        self.results = results
    }

    /// The latest result of a step (a loop may visit a step more than once).
    public func stepResult(_ identifier: String) -> StepResult? {
        results.last { $0.identifier == identifier }
    }

    /// The question result a selector names, from the latest visit of its step.
    public func questionResult(_ selector: ResultSelector) -> QuestionResult? {
        stepResult(selector.stepIdentifier)?.result(selector.resultIdentifier)
    }
}
