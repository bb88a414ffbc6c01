import Foundation
import JSON
import SurveyCore

/// Which question a test reads: a step and the identifier of its question result (the step's
/// own for a question step, the item's for a form).
struct QuestionKey: Hashable, Sendable {
    let step: String
    let question: String

    init(step: String, question: String) {
        self.step = step
        self.question = question
    }

    init(_ selector: ResultSelector) {
        self.init(step: selector.stepIdentifier, question: selector.resultIdentifier)
    }
}

/// One test on one answer, required to hold or to fail. The test is a leaf predicate (not
/// `not`, `all` or `any`) read on the answer of a question whose result exists.
struct AnswerLiteral: Hashable, Sendable {
    let key: QuestionKey
    let test: Predicate
    let holds: Bool

    var negated: AnswerLiteral { AnswerLiteral(key: key, test: test, holds: !holds) }
}

/// A condition on the answers of the steps on a path, in negation normal form: a predicate
/// with the tests on results that cannot exist yet already replaced by `false`.
indirect enum AnswerFormula: Hashable, Sendable {
    case constant(Bool)
    case literal(AnswerLiteral)
    case all([AnswerFormula])
    case any([AnswerFormula])

    static let yes = AnswerFormula.constant(true)
    static let no = AnswerFormula.constant(false)

    /// A conjunction, folded: `false` if any part is, the parts that are not `true` otherwise.
    static func and(_ parts: [AnswerFormula]) -> AnswerFormula {
        var kept: [AnswerFormula] = []
        for part in parts {
            switch part {
            case .constant(true): continue
            case .constant(false): return .no
            case .all(let inner): kept += inner
            default: kept.append(part)
            }
        }
        if kept.isEmpty { return .yes }
        return kept.count == 1 ? kept[0] : .all(kept)
    }

    /// A disjunction, folded: `true` if any part is, the parts that are not `false` otherwise.
    static func or(_ parts: [AnswerFormula]) -> AnswerFormula {
        var kept: [AnswerFormula] = []
        for part in parts {
            switch part {
            case .constant(false): continue
            case .constant(true): return .yes
            case .any(let inner): kept += inner
            default: kept.append(part)
            }
        }
        if kept.isEmpty { return .no }
        return kept.count == 1 ? kept[0] : .any(kept)
    }

    /// The negation, pushed down to the literals.
    var negated: AnswerFormula {
        switch self {
        case .constant(let value): return .constant(!value)
        case .literal(let literal): return .literal(literal.negated)
        case .all(let parts): return .or(parts.map(\.negated))
        case .any(let parts): return .and(parts.map(\.negated))
        }
    }
}

/// The questions of a survey by key, and its form pages, for reading predicates along a path.
struct QuestionIndex: Sendable {
    let task: SurveyTask
    let questions: [QuestionKey: Step.Question]
    let pages: [String: [Range<Int>]]

    init(task: SurveyTask) {
        self.task = task
        var questions: [QuestionKey: Step.Question] = [:]
        var pages: [String: [Range<Int>]] = [:]
        for step in task.steps {
            for question in step.questions where questions[QuestionKey(step: step.identifier, question: question.identifier)] == nil {
                questions[QuestionKey(step: step.identifier, question: question.identifier)] = question
            }
            if case .form(let content) = step.kind { pages[step.identifier] = FormLayout.pages(of: content.items, in: step.identifier) }
            if let repeating = step.repeating {
                // A repeating form's own identifier is its count of instances, a whole number.
                questions[QuestionKey(step: step.identifier, question: step.identifier)] = Step.Question(
                    identifier: step.identifier, answerFormat: .numeric(NumericFormat(style: .integer, minimum: Double(repeating.minimum),
                                                                                     maximum: Double(repeating.maximum))),
                    isOptional: false, visibleIf: nil)
            }
        }
        self.questions = questions
        self.pages = pages
    }
}

/// A moment on a path at which a predicate is read: which results exist by then.
///
/// A result exists once its step was shown, and for a form item only when the item showed;
/// each form item's visibility is itself a formula, over the answers saved before the form
/// (and the form's earlier pages), fixed when the form is entered.
struct PathPoint: Sendable {
    let index: QuestionIndex
    /// Steps shown so far: their question results exist.
    private(set) var shown: Set<String> = []
    /// When each item of a shown form shows.
    private(set) var visibility: [QuestionKey: AnswerFormula] = [:]
    /// While a form is being entered: the form and the items of its pages before the one read.
    private var entering: (step: String, items: Set<String>)?

    init(index: QuestionIndex) {
        self.index = index
    }

    /// A predicate read at this point, as a formula over the answers that exist by then.
    func formula(_ predicate: Predicate) -> AnswerFormula {
        switch predicate {
        case .not(let inner):
            return formula(inner).negated
        case .all(let parts):
            return .and(parts.map(formula))
        case .any(let parts):
            return .or(parts.map(formula))
        case .everyInstance(let inner):
            // The paths take one answer per question: one instance, for which "every" is "any".
            return formula(inner)
        default:
            // An expression may read anything; the solver reads it as false (see PathFinder's limits).
            guard let selector = predicate.selectors.first else { return .no }
            // FHIR's `exists false` and `!=` hold on a question that has no result at all.
            let missing: AnswerFormula = predicate.holdsWithoutResult ? .yes : .no
            let key = QuestionKey(selector)
            guard index.questions[key] != nil else { return missing }
            if let entering, entering.step == key.step {
                guard entering.items.contains(key.question) else { return missing }
            } else if !shown.contains(key.step) {
                return missing
            }
            let visible = visibility[key] ?? .yes
            let tested = AnswerFormula.and([visible, .literal(AnswerLiteral(key: key, test: predicate, holds: true))])
            return predicate.holdsWithoutResult ? .or([tested, visible.negated]) : tested
        }
    }

    /// The point after a step is shown and submitted: its results exist, a form item's when it shows.
    func entering(_ step: Step) -> PathPoint {
        var next = self
        if case .form(let content) = step.kind, let pages = index.pages[step.identifier] {
            var earlier = Set<String>()
            for page in pages {
                next.entering = (step.identifier, earlier)
                for position in page {
                    guard case .question(let question) = content.items[position] else { continue }
                    let key = QuestionKey(step: step.identifier, question: question.identifier)
                    next.visibility[key] = question.visibleIf.map(next.formula) ?? .yes
                }
                for position in page {
                    if case .question(let question) = content.items[position] { earlier.insert(question.identifier) }
                }
            }
            next.entering = nil
        }
        next.shown.insert(step.identifier)
        return next
    }
}
