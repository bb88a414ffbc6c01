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
    /// What a REDCap data dictionary's row said that the survey does not show, kept for
    /// `survey export-definition --format redcap` (docs/redcap-and-xlsform.md).
    public var redcap: JSONObject?
    /// On a completion step: arriving ends the run as screened out, not completed.
    public var screensOut: Bool?

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

    /// A question or form step whose every item is a hidden question (a hidden FHIR item, or a
    /// group marked hidden): nothing of it is drawn, so the server records its answers (initial
    /// and calculated values) and passes over it.
    public var showsNothing: Bool {
        switch kind {
        case .question(let content):
            return content.behaviour.isHidden
        case .form(let content):
            return !content.items.isEmpty && content.items.allSatisfy {
                if case .question(let question) = $0 { return question.behaviour.isHidden }
                return false
            }
        case .allocation:
            return true
        default:
            return false
        }
    }

    public var allocation: AllocationContent? {
        if case .allocation(let content) = kind { return content }
        return nil
    }

    /// A form asked once per instance, with its limits and words.
    public var repeating: FormRepeat? {
        if case .form(let content) = kind { return content.repeating }
        return nil
    }

    public var isConsentReview: Bool {
        if case .consentReview = kind { return true }
        return false
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
            behaviour.redcap = redcap
            return [Question(identifier: identifier, answerFormat: content.answerFormat, isOptional: isOptional, visibleIf: nil,
                             behaviour: behaviour)]
        case .form(let content):
            return content.items.compactMap { item in
                guard case .question(let question) = item else { return nil }
                return question.asQuestion
            }
        case .consentSharing:
            return [Question(identifier: identifier, answerFormat: .boolean(BooleanFormat()), isOptional: false, visibleIf: nil)]
        case .consentReview:
            return Self.consentQuestions
        case .allocation(let content):
            return [Question(identifier: identifier, answerFormat: content.format, isOptional: false, visibleIf: nil,
                             behaviour: QuestionBehaviour(hidden: true))]
        default:
            return []
        }
    }

    /// The questions of one page of a step that is not a form (whose pages depend on answers).
    public func questions(onPage page: Int) -> [Question] {
        guard case .consentReview = kind else { return questions }
        let fields = ConsentReviewContent.Field.self
        return Self.consentQuestions.filter {
            ($0.identifier == fields.certified) == (page == ConsentReviewContent.certificationPage)
        }
    }

    /// What the consent review records: Agree, the typed names, the drawing, and certification.
    private static let consentQuestions: [Question] = {
        let fields = ConsentReviewContent.Field.self
        let name = AnswerFormat.text(TextFormat(maximumLength: 100))
        // A signature names its signer: the names and the drawing are identifying.
        let signs = QuestionBehaviour(identifying: true)
        return [
            Question(identifier: fields.consented, answerFormat: .boolean(BooleanFormat()), isOptional: false, visibleIf: nil),
            Question(identifier: fields.givenName, answerFormat: name, isOptional: false, visibleIf: nil, behaviour: signs),
            Question(identifier: fields.familyName, answerFormat: name, isOptional: false, visibleIf: nil, behaviour: signs),
            Question(identifier: fields.drawing, answerFormat: .text(TextFormat(maximumLength: SignatureDrawing.maximumLength)),
                     isOptional: true, visibleIf: nil, behaviour: signs),
            Question(identifier: fields.certified, answerFormat: .boolean(BooleanFormat()), isOptional: false, visibleIf: nil),
        ]
    }()

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
