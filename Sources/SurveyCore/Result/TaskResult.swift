import Foundation
import JSON

/// One question's result: its answer (none when skipped or left empty) and when it was given.
public struct QuestionResult: Sendable, Hashable, Codable {
    public var identifier: String
    public var type: QuestionResultType
    public var startDate: Date
    public var endDate: Date
    public var answer: Answer?
    /// Numeric results: the format's unit (`cm` and `kg` for height and weight).
    public var unit: String?
    public var displayUnit: String?
    /// Date results: the IANA zone the answer was read in.
    public var timeZone: String?
    /// Multiple value picker results.
    public var separator: String?

    public init(identifier: String, type: QuestionResultType, startDate: Date, endDate: Date, answer: Answer?,
                unit: String? = nil, displayUnit: String? = nil, timeZone: String? = nil, separator: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.answer = answer
        self.unit = unit
        self.displayUnit = displayUnit
        self.timeZone = timeZone
        self.separator = separator
    }
}

/// One step on the path with its question results (ORKStepResult).
public struct StepResult: Sendable, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var results: [QuestionResult]

    public init(identifier: String, startDate: Date, endDate: Date, results: [QuestionResult]) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.results = results
    }

    public func result(_ identifier: String) -> QuestionResult? {
        results.last { $0.identifier == identifier }
    }
}

/// A run's whole result (ORKTaskResult): the step results along the path, in order.
public struct TaskResult: Sendable, Hashable {
    public var identifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    public var endDate: Date
    public var finishReason: FinishReason?
    public var results: [StepResult]

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
