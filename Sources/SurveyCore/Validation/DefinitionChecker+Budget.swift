import FHIRPath
import Foundation
import JSON

// The FHIRPath budget at load time (docs/fhir.md): every expression is worked out once on the
// answers a run starts with, and one that goes over its budget there is refused with its path.
// One that goes over only on some answers is left to run time, where it counts as empty.

extension DefinitionChecker {
    /// Where an expression sits and the scope it is worked out in, as the navigator works it out.
    struct ExpressionSite {
        let path: JSONPath
        let source: String
        let step: Step?
        let question: Step.Question?
    }

    /// Refuses every expression that goes over ``FHIRPathBudget/standard`` on the starting answers.
    /// Runs only on a survey without errors so far, whose expressions all parse and name variables in scope.
    func checkBudgets() {
        guard !log.hasErrors, let expressions = SurveyExpressions(task: task) else { return }
        let timeZone = task.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let run = expressions.on(startingResult(timeZone: timeZone), timeZone: timeZone)
        for site in expressionSites() {
            _ = run.values(site.source, step: site.step, question: site.question)
            guard let error = run.overBudget[site.source], let limit = error.exceeded else { continue }
            log.error(site.path, "The FHIRPath expression \"\(site.source)\" needs more than its budget of \(limit) on the answers a run "
                      + "starts with (\(error.description)); make it do less, for example by not nesting select() or doubling text.")
        }
    }

    /// No answers yet, except each question's `initial` value.
    func startingResult(timeZone: TimeZone) -> TaskResult {
        let now = Date()
        let steps = task.steps.map { step in
            let results = step.questions.compactMap { question -> QuestionResult? in
                guard let initial = question.behaviour.initial,
                      let answer = AnswerConversion.answer(fromJSON: initial, format: question.answerFormat) else { return nil }
                return QuestionResult.make(for: question, answer: answer, startDate: now, endDate: now, timeZone: timeZone)
            }
            return StepResult(identifier: step.identifier, startDate: now, endDate: now, results: results)
        }
        return TaskResult(identifier: task.identifier, taskRunUUID: UUID(), startDate: now, endDate: now, finishReason: nil,
                          results: steps.filter { !$0.results.isEmpty })
    }

    /// Every expression of the survey with its path, in file order.
    func expressionSites() -> [ExpressionSite] {
        var sites: [ExpressionSite] = []
        for (index, variable) in task.variables.enumerated() {
            sites.append(ExpressionSite(path: .root / "variables" / index / "expression", source: variable.expression, step: nil, question: nil))
        }
        for (stepIndex, step) in task.steps.enumerated() {
            let stepPath = JSONPath.root / "steps" / stepIndex
            for (index, variable) in step.variables.enumerated() {
                sites.append(ExpressionSite(path: stepPath / "variables" / index / "expression", source: variable.expression, step: step, question: nil))
            }
            switch step.kind {
            case .question:
                guard let question = step.questions.first else { break }
                for entry in question.behaviour.expressions {
                    sites.append(ExpressionSite(path: stepPath / entry.key, source: entry.source, step: step, question: question))
                }
            case .form(let content):
                for (itemIndex, item) in content.items.enumerated() {
                    let itemPath = stepPath / "items" / itemIndex
                    if case .question(let formQuestion) = item {
                        let question = formQuestion.asQuestion
                        for (index, variable) in question.behaviour.variables.enumerated() {
                            sites.append(ExpressionSite(path: itemPath / "variables" / index / "expression", source: variable.expression,
                                                        step: step, question: question))
                        }
                        for entry in question.behaviour.expressions {
                            sites.append(ExpressionSite(path: itemPath / entry.key, source: entry.source, step: step, question: question))
                        }
                    }
                    if let visibleIf = item.visibleIf {
                        sites += Self.sites(in: visibleIf, at: itemPath / "visibleIf", step: step)
                    }
                }
            default:
                break
            }
        }
        for entry in task.skipRules {
            sites += Self.sites(in: entry.predicate, at: .root / "skipRules" / entry.stepIdentifier, step: task.step(entry.stepIdentifier))
        }
        for entry in task.navigationRules {
            guard case .predicate(let rules, _) = entry.rule else { continue }
            for (index, rule) in rules.enumerated() {
                sites += Self.sites(in: rule.predicate, at: .root / "navigationRules" / entry.stepIdentifier / "rules" / index / "if", step: nil)
            }
        }
        return sites
    }

    /// The `expression` leaves of a predicate, with the paths the checker gives them.
    static func sites(in predicate: Predicate, at path: JSONPath, step: Step?) -> [ExpressionSite] {
        switch predicate {
        case .expression(let source):
            return [ExpressionSite(path: path / "expression", source: source, step: step, question: nil)]
        case .not(let inner):
            return sites(in: inner, at: path / "not", step: step)
        case .all(let list):
            return list.enumerated().flatMap { sites(in: $0.element, at: path / "all" / $0.offset, step: step) }
        case .any(let list):
            return list.enumerated().flatMap { sites(in: $0.element, at: path / "any" / $0.offset, step: step) }
        default:
            return []
        }
    }
}
