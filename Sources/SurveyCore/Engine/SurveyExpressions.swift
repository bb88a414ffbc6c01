import FHIRPath
import Foundation
import JSON

/// A survey's FHIRPath expressions, parsed once, and how they are worked out on a run's
/// answers: `%resource` is the run's QuestionnaireResponse so far, `%questionnaire` the
/// survey as a Questionnaire, and variables are evaluated in scope order (the survey's, the
/// step's, the question's), each seeing the ones before it.
public struct SurveyExpressions: Sendable {
    let parsed: [String: FHIRPathExpression]
    let surveyJSON: JSONValue
    let questionnaire: JSONValue
    let variables: [NamedExpression]
    let surveyIdentifier: String

    /// Nil when the survey has no expression at all, so a survey without any pays nothing.
    public init?(task: SurveyTask) {
        var sources = task.variables.map(\.expression)
        for step in task.steps {
            sources += step.variables.map(\.expression)
            for question in step.questions {
                sources += question.behaviour.variables.map(\.expression) + question.behaviour.expressions.map(\.source)
                sources += question.visibleIf?.expressions ?? []
                sources += (question.answerFormat.filteredChoices ?? []).flatMap { $0.visibleIf?.expressions ?? [] }
            }
            if case .form(let content) = step.kind {
                for case .note(let note) in content.items { sources += note.visibleIf?.expressions ?? [] }
            }
        }
        for entry in task.skipRules { sources += entry.predicate.expressions }
        for entry in task.navigationRules {
            if case .predicate(let rules, _) = entry.rule { sources += rules.flatMap(\.predicate.expressions) }
        }
        guard !sources.isEmpty else { return nil }
        var parsed: [String: FHIRPathExpression] = [:]
        for source in sources where parsed[source] == nil {
            // The loader refused any expression that does not parse; one that slips through counts as empty.
            if let expression = try? FHIRPathExpression(source) { parsed[source] = expression }
        }
        self.parsed = parsed
        surveyJSON = task.json
        questionnaire = QuestionnaireExport.questionnaire(fromSurvey: surveyJSON, surveyVersion: nil).questionnaire
        variables = task.variables
        surveyIdentifier = task.identifier
    }

    /// Expressions worked out on one set of answers; the response is built once, on first use.
    public func on(_ result: TaskResult, timeZone: TimeZone) -> ExpressionRun {
        ExpressionRun(book: self, result: result, timeZone: timeZone)
    }
}

extension Step {
    var isQuestionStep: Bool {
        if case .question = kind { return true }
        return false
    }
}
