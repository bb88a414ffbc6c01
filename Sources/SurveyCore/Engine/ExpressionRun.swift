import FHIRPath
import Foundation
import JSON

/// The expressions of a survey on one run's answers so far.
public final class ExpressionRun {
    let book: SurveyExpressions
    let result: TaskResult
    let timeZone: TimeZone
    /// What today() and now() read: the moment the answers are read at, the run's end once it has one.
    let clock: FHIRPathEnvironment.Clock
    private var builtResponse: JSONValue?
    private var rootVariables: [String: [FHIRPathValue]]?
    /// The expressions that went over their budget on these answers, by source, with the error.
    private(set) var overBudget: [String: FHIRPathError] = [:]

    init(book: SurveyExpressions, result: TaskResult, timeZone: TimeZone) {
        self.book = book
        self.result = result
        self.timeZone = timeZone
        clock = FHIRPathEnvironment.Clock(result.endDate, in: timeZone)
    }

    /// The run's answers so far as a QuestionnaireResponse.
    public var response: JSONValue {
        if let builtResponse { return builtResponse }
        let made = QuestionnaireResponseExport.response(survey: book.surveyJSON, result: result.json(in: timeZone), surveyVersion: nil)
        builtResponse = made
        return made
    }

    /// The value of an expression; a fault while working it out gives the empty collection. An
    /// expression over its budget is also told to ``ExpressionFault/report``, once per run.
    public func values(_ source: String, step: Step? = nil, question: Step.Question? = nil) -> [FHIRPathValue] {
        guard let expression = book.parsed[source] else { return [] }
        var names = variables()
        var scopes = [step?.variables ?? []]
        if let question, step.map({ !$0.isQuestionStep }) ?? true { scopes.append(question.behaviour.variables) }
        // `%context` is the expression's item in the response; an item not answered yet has none
        // there, so it stands as an item with its linkId and no answer, not as the whole response.
        let context = (question?.behaviour.fhir?["linkId"] ?? step?.fhir?["linkId"]).map { linkId in
            Self.item(linkId: linkId, in: response) ?? .object(["linkId": linkId])
        }
        for scope in scopes {
            for variable in scope {
                names[variable.name] = evaluate(variable.expression, names, context: context, step: step, question: question)
            }
        }
        return evaluate(expression, names, context: context, step: step, question: question)
    }

    /// True when a predicate's expression gives the single value `true`.
    public func holds(_ source: String, step: Step? = nil) -> Bool {
        values(source, step: step) == [.boolean(true)]
    }

    private func variables() -> [String: [FHIRPathValue]] {
        if let rootVariables { return rootVariables }
        var names: [String: [FHIRPathValue]] = [:]
        for variable in book.variables {
            names[variable.name] = evaluate(variable.expression, names, context: nil, step: nil, question: nil)
        }
        rootVariables = names
        return names
    }

    private func evaluate(_ source: String, _ names: [String: [FHIRPathValue]], context: JSONValue?,
                          step: Step?, question: Step.Question?) -> [FHIRPathValue] {
        guard let expression = book.parsed[source] else { return [] }
        return evaluate(expression, names, context: context, step: step, question: question)
    }

    private func evaluate(_ expression: FHIRPathExpression, _ names: [String: [FHIRPathValue]], context: JSONValue?,
                          step: Step?, question: Step.Question?) -> [FHIRPathValue] {
        let environment = FHIRPathEnvironment(resource: response, questionnaire: book.questionnaire, context: context, variables: names,
                                              clock: clock)
        do {
            return try expression.evaluate(in: environment)
        } catch {
            if let limit = error.exceeded { noteOverBudget(expression.source, error, limit: limit, step: step, question: question) }
            return []
        }
    }

    /// Keeps the first fault of each source and tells it to whoever listens; the values never leave.
    private func noteOverBudget(_ source: String, _ error: FHIRPathError, limit: FHIRPathBudget.Limit, step: Step?, question: Step.Question?) {
        guard overBudget[source] == nil else { return }
        overBudget[source] = error
        ExpressionFault.report(ExpressionFault(survey: book.surveyIdentifier, expression: source, step: step?.identifier,
                                                question: question?.identifier, limit: limit))
    }

    /// The response item with the linkId, searched depth first.
    static func item(linkId: JSONValue, in node: JSONValue) -> JSONValue? {
        guard case .object(let object) = node else { return nil }
        if object["linkId"] == linkId, object["resourceType"] == nil { return node }
        for key in ["item", "answer"] {
            guard case .array(let children)? = object[key] else { continue }
            for child in children {
                if let found = item(linkId: linkId, in: child) { return found }
            }
        }
        return nil
    }
}
