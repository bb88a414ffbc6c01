import Foundation
import JSON

/// Where a participant stands in one run of a task: the steps visited, in order, with their
/// answers. It is all the state a server keeps; every position is recomputed from it.
///
/// `visits[0...cursor]` is the path taken. Visits after the cursor are steps the participant
/// went Back from: their answers are kept to fill the form again if the path still leads
/// there, and are dropped as soon as it does not.
public struct TaskRun: Sendable, Hashable, Codable {
    public var taskIdentifier: String
    public var taskRunUUID: UUID
    public var startDate: Date
    public var endDate: Date?
    public var finishReason: FinishReason?
    public var visits: VisitList
    public var cursor: Int
    /// The signed copy, countersignature and withdrawal of a consent given in this run.
    public var consent: ConsentStatus?
    /// The declared parameters the run was started with (docs/panels.md).
    public var parameters: [String: String]?
    /// Each shuffled question's choices as this run shows them (indices into the written
    /// choices), by selector (`stepId` or `stepId.itemId`); drawn once, at the start.
    public var choiceOrders: [String: [Int]]?
    /// Each block's steps as this run takes them (indices into the written steps), by block.
    public var blockOrders: [String: [Int]]?
    /// The arm each allocation step assigned, by step.
    public var arms: [String: String]?

    public init(taskIdentifier: String, taskRunUUID: UUID, startDate: Date, visits: [StepVisit] = [], cursor: Int = 0) {
        self.taskIdentifier = taskIdentifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.visits = VisitList(visits)
        self.cursor = cursor
    }

    public var isFinished: Bool { finishReason != nil }

    /// The visit the participant is on, if the run has one.
    public var current: StepVisit? { visits.indices.contains(cursor) ? visits[cursor] : nil }

    /// The visits on the path taken.
    public var path: Slice<VisitList> { visits.isEmpty ? visits[0..<0] : visits[0...min(cursor, visits.count - 1)] }
}


extension ChoiceValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        }
    }
}
