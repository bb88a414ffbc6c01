import Foundation

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

    public init(identifier: String, kind: StepKind, title: LocalizedText? = nil, text: LocalizedText? = nil,
                detailText: LocalizedText? = nil, footnote: LocalizedText? = nil, image: String? = nil,
                imageAlt: LocalizedText? = nil, optional: Bool? = nil, showsProgress: Bool? = nil, learnMore: LearnMore? = nil) {
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
            return [Question(identifier: identifier, answerFormat: content.answerFormat, isOptional: isOptional, visibleIf: nil)]
        case .form(let content):
            return content.items.compactMap { item in
                guard case .question(let question) = item else { return nil }
                return Question(identifier: question.identifier, answerFormat: question.answerFormat,
                                isOptional: question.isOptional, visibleIf: question.visibleIf)
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
    public init(question: LocalizedText? = nil, placeholder: LocalizedText? = nil, answerFormat: AnswerFormat) {
        self.question = question
        self.placeholder = placeholder
        self.answerFormat = answerFormat
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

/// A form's entry: a section header or a question.
public enum FormItem: Sendable, Hashable {
    case section(SectionHeader)
    case question(FormQuestion)
}

public struct SectionHeader: Sendable, Hashable {
    public var sectionTitle: LocalizedText
    public var detailText: LocalizedText?
    public init(sectionTitle: LocalizedText, detailText: LocalizedText? = nil) {
        self.sectionTitle = sectionTitle
        self.detailText = detailText
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

    public init(identifier: String, text: LocalizedText? = nil, detailText: LocalizedText? = nil, placeholder: LocalizedText? = nil,
                optional: Bool? = nil, answerFormat: AnswerFormat, visibleIf: Predicate? = nil) {
        self.identifier = identifier
        self.text = text
        self.detailText = detailText
        self.placeholder = placeholder
        self.optional = optional
        self.answerFormat = answerFormat
        self.visibleIf = visibleIf
    }

    public var isOptional: Bool { optional ?? true }
}
