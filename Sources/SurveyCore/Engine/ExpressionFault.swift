import Foundation

/// An expression that went over its ``FHIRPathBudget`` on a run's answers and so counted as empty
/// (an `expression` predicate false, a calculated or initial answer absent).
///
/// It holds what the author wrote and where, never an answer. The core has no logger: whoever
/// serves runs binds ``report`` for the work it does (the server does so for each request) and
/// writes the fault to its log.
public struct ExpressionFault: Sendable, Hashable {
    /// The survey's identifier.
    public let survey: String
    /// The expression as written in the survey.
    public let expression: String
    /// The step the expression was worked out for, nil for a survey-wide variable.
    public let step: String?
    /// The question the expression belongs to, when it belongs to one.
    public let question: String?
    /// The limit it went over.
    public let limit: FHIRPathBudget.Limit

    public init(survey: String, expression: String, step: String?, question: String?, limit: FHIRPathBudget.Limit) {
        self.survey = survey
        self.expression = expression
        self.step = step
        self.question = question
        self.limit = limit
    }

    /// Hears every fault met while the current task works expressions out; nil (the default) ignores them.
    @TaskLocal public static var report: (@Sendable (ExpressionFault) -> Void)?
}
