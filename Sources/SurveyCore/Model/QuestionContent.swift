import Foundation
import JSON

public struct QuestionContent: Sendable, Hashable {
    public var question: LocalizedText?
    public var placeholder: LocalizedText?
    public var answerFormat: AnswerFormat
    /// Read-only, hidden, initial and calculated answers; its variables and FHIR details are the step's.
    public var behaviour: QuestionBehaviour
    public init(question: LocalizedText? = nil, placeholder: LocalizedText? = nil, answerFormat: AnswerFormat,
                behaviour: QuestionBehaviour = QuestionBehaviour()) {
        self.question = question
        self.placeholder = placeholder
        self.answerFormat = answerFormat
        self.behaviour = behaviour
    }
}
