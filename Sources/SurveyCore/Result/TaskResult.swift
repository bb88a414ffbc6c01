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
    /// The declared parameters the run was started with.
    public var parameters: [String: String]?
    /// Each shuffled question's choice values in the order shown, by selector.
    public var choiceOrders: [String: [ChoiceValue]]?
    /// Each block's steps in the order taken, by block.
    public var blockOrders: [String: [String]]?

    public init(identifier: String, taskRunUUID: UUID, startDate: Date, endDate: Date, finishReason: FinishReason?, results: [StepResult]) {
        self.identifier = identifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDate = endDate
        self.finishReason = finishReason
        self.results = results
    }

    /// The result with the answers that identify the participant left out: those of questions
    /// marked identifying (a consent's signature among them) and a countersignature's name.
    public func withoutIdentifying(in task: SurveyTask) -> TaskResult {
        var result = self
        for index in result.results.indices {
            guard let step = task.step(result.results[index].identifier) else { continue }
            let identifying = Set(step.questions.filter(\.behaviour.isIdentifying).map(\.identifier))
            if !identifying.isEmpty { result.results[index].results.removeAll { identifying.contains($0.identifier) } }
        }
        result.consent?.countersignature?.name = ""
        return result
    }

    /// The latest result of a step (a loop may visit a step more than once).
    public func stepResult(_ identifier: String) -> StepResult? {
        results.last { $0.identifier == identifier }
    }

    /// The question result a selector names, from the latest visit of its step.
    public func questionResult(_ selector: ResultSelector) -> QuestionResult? {
        if selector.stepIdentifier == SurveyParameter.selectorStep, let name = selector.itemIdentifier {
            let value = parameters?[name]
            return QuestionResult(identifier: name, type: .text, startDate: startDate, endDate: startDate, answer: value.map(Answer.text))
        }
        guard let step = stepResult(selector.stepIdentifier) else { return nil }
        if selector.itemIdentifier == nil, let instances = step.instances {
            // A repeating form's own identifier names how many instances it has.
            return QuestionResult(identifier: step.identifier, type: .numeric, startDate: step.startDate, endDate: step.endDate,
                                  answer: .numeric(Double(instances.count)))
        }
        return step.result(selector.resultIdentifier)
    }

    /// When a selector names an item of a repeating form whose instances are done: the result
    /// as each instance sees it, that instance's answers standing for the step's.
    public func instanceResults(for selector: ResultSelector?) -> [TaskResult]? {
        guard let selector, selector.itemIdentifier != nil,
              let position = results.lastIndex(where: { $0.identifier == selector.stepIdentifier }),
              let instances = results[position].instances else { return nil }
        return instances.map { answers in
            var seen = self
            seen.results[position].results = answers
            seen.results[position].instances = nil
            return seen
        }
    }
}
