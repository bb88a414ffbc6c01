import Foundation
import JSON

public struct FormQuestion: Sendable, Hashable {
    public var identifier: String
    public var text: LocalizedText?
    public var detailText: LocalizedText?
    public var placeholder: LocalizedText?
    public var optional: Bool?
    public var answerFormat: AnswerFormat
    public var visibleIf: Predicate?
    /// Read-only, hidden, initial and calculated answers, variables and FHIR details (docs/fhir.md).
    public var behaviour: QuestionBehaviour

    public init(identifier: String, text: LocalizedText? = nil, detailText: LocalizedText? = nil, placeholder: LocalizedText? = nil,
                optional: Bool? = nil, answerFormat: AnswerFormat, visibleIf: Predicate? = nil, behaviour: QuestionBehaviour = QuestionBehaviour()) {
        self.identifier = identifier
        self.text = text
        self.detailText = detailText
        self.placeholder = placeholder
        self.optional = optional
        self.answerFormat = answerFormat
        self.visibleIf = visibleIf
        self.behaviour = behaviour
    }

    public var isOptional: Bool { optional ?? true }

    /// The question as the engine asks it.
    public var asQuestion: Step.Question {
        Step.Question(identifier: identifier, answerFormat: answerFormat, isOptional: isOptional, visibleIf: visibleIf, behaviour: behaviour)
    }
}
