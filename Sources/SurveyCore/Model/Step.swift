import Foundation
import JSON

/// One screen of a survey (ORKStep and its subclasses).
public struct Step: Sendable, Hashable {
    public var identifier: String
    public var kind: StepKind
    public var title: LocalizedText?
    public var text: LocalizedText?
    public var detailText: LocalizedText?
    public var footnote: LocalizedText?
    public var image: String?
    public var imageAlt: LocalizedText?
    public var optional: Bool?
    public var showsProgress: Bool?
    public var learnMore: LearnMore?
    /// Named FHIRPath values in scope on this step (docs/fhir.md).
    public var variables: [NamedExpression] = []
    /// What a FHIR Questionnaire item said that the survey does not show (docs/fhir.md).
    public var fhir: JSONObject?

    public init(identifier: String, kind: StepKind, title: LocalizedText? = nil, text: LocalizedText? = nil,
                detailText: LocalizedText? = nil, footnote: LocalizedText? = nil, image: String? = nil,
                imageAlt: LocalizedText? = nil, optional: Bool? = nil, showsProgress: Bool? = nil, learnMore: LearnMore? = nil,
                variables: [NamedExpression] = [], fhir: JSONObject? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.title = title
        self.text = text
        self.detailText = detailText
        self.footnote = footnote
        self.image = image
        self.imageAlt = imageAlt
        self.optional = optional
        self.showsProgress = showsProgress
        self.learnMore = learnMore
        self.variables = variables
        self.fhir = fhir
    }

    /// Question and form steps are optional unless the author says otherwise; other steps are not
    /// (the defaults of ResearchKit's code, not of its header).
    public var isOptional: Bool {
        if let optional { return optional }
        switch kind {
        case .question, .form: return true
        default: return false
        }
    }

    public var reportsProgress: Bool { showsProgress ?? true }

    /// Instruction, completion and video instruction steps: the ORKInstructionStep family.
    public var isInstructionLike: Bool {
        switch kind {
        case .instruction, .completion, .videoInstruction: return true
        default: return false
        }
    }

    public var isCompletion: Bool {
        if case .completion = kind { return true }
        return false
    }

    /// The questions this step asks, as (result identifier, item identifier, format).
    /// A question step's single question has its own identifier; a form's items have theirs.
    public var questions: [Question] {
        switch kind {
        case .question(let content):
            var behaviour = content.behaviour
            behaviour.variables = variables
            behaviour.fhir = fhir
            return [Question(identifier: identifier, answerFormat: content.answerFormat, isOptional: isOptional, visibleIf: nil,
                             behaviour: behaviour)]
        case .form(let content):
            return content.items.compactMap { item in
                guard case .question(let question) = item else { return nil }
                return question.asQuestion
            }
        default:
            return []
        }
    }

    /// One answerable question of a step, the same shape for question steps and form items.
    public struct Question: Sendable, Hashable {
        public let identifier: String
        public let answerFormat: AnswerFormat
        public let isOptional: Bool
        public let visibleIf: Predicate?
        public var behaviour = QuestionBehaviour()

        public init(identifier: String, answerFormat: AnswerFormat, isOptional: Bool, visibleIf: Predicate?,
                    behaviour: QuestionBehaviour = QuestionBehaviour()) {
            self.identifier = identifier
            self.answerFormat = answerFormat
            self.isOptional = isOptional
            self.visibleIf = visibleIf
            self.behaviour = behaviour
        }
    }
}

/// `{title, text}` shown in a disclosure the participant may open.
public struct LearnMore: Sendable, Hashable {
    public var title: LocalizedText?
    public var text: LocalizedText
    public init(title: LocalizedText? = nil, text: LocalizedText) {
        self.title = title
        self.text = text
    }
}

/// What a step is, with the keys that only that kind has.
public enum StepKind: Sendable, Hashable {
    case instruction
    case completion
    case question(QuestionContent)
    case form(FormContent)
    case review(ReviewContent)
    case videoInstruction(VideoContent)

    public static let typeNames = ["instruction", "completion", "question", "form", "review", "videoInstruction"]

    public var typeName: String {
        switch self {
        case .instruction: return "instruction"
        case .completion: return "completion"
        case .question: return "question"
        case .form: return "form"
        case .review: return "review"
        case .videoInstruction: return "videoInstruction"
        }
    }
}

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

public struct FormContent: Sendable, Hashable {
    public var items: [FormItem]
    public var footerText: LocalizedText?
    public init(items: [FormItem], footerText: LocalizedText? = nil) {
        self.items = items
        self.footerText = footerText
    }
}

public struct ReviewContent: Sendable, Hashable {
    public var excludeInstructionSteps: Bool?
    public init(excludeInstructionSteps: Bool? = nil) { self.excludeInstructionSteps = excludeInstructionSteps }
}

public struct VideoContent: Sendable, Hashable {
    public var videoURL: String?
    public var captionsURL: String?
    public init(videoURL: String? = nil, captionsURL: String? = nil) {
        self.videoURL = videoURL
        self.captionsURL = captionsURL
    }
}

/// A form's entry: a section header, a question or a note.
public enum FormItem: Sendable, Hashable {
    case section(SectionHeader)
    case question(FormQuestion)
    case note(FormNote)

    /// The condition the item shows on, for questions and notes.
    public var visibleIf: Predicate? {
        switch self {
        case .section: return nil
        case .question(let question): return question.visibleIf
        case .note(let note): return note.visibleIf
        }
    }
}

public struct SectionHeader: Sendable, Hashable {
    public var sectionTitle: LocalizedText
    public var detailText: LocalizedText?
    /// The nested FHIR group the header opens (docs/fhir.md).
    public var fhir: JSONObject?
    public init(sectionTitle: LocalizedText, detailText: LocalizedText? = nil, fhir: JSONObject? = nil) {
        self.sectionTitle = sectionTitle
        self.detailText = detailText
        self.fhir = fhir
    }
}

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
