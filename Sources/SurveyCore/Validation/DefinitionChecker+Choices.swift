import Foundation
import JSON

extension DefinitionChecker {
    /// A choice's `visibleIf` is judged on arrival at its step, on the answers before it: its
    /// selectors must name questions of earlier steps, never its own step's.
    func checkChoiceFilters(resolvingInto resolved: inout SurveyTask) {
        for (stepIndex, step) in task.steps.enumerated() {
            let path = JSONPath.root / "steps" / stepIndex
            switch step.kind {
            case .question(var content):
                content.answerFormat = checkedChoices(content.answerFormat, in: step, at: path / "answerFormat")
                resolved.steps[stepIndex].kind = .question(content)
            case .form:
                guard case .form(var content) = resolved.steps[stepIndex].kind else { continue }
                for (itemIndex, item) in content.items.enumerated() {
                    guard case .question(var question) = item else { continue }
                    question.answerFormat = checkedChoices(question.answerFormat, in: step, at: path / "items" / itemIndex / "answerFormat")
                    content.items[itemIndex] = .question(question)
                }
                resolved.steps[stepIndex].kind = .form(content)
            default:
                continue
            }
        }
    }

    private func checkedChoices(_ format: AnswerFormat, in step: Step, at path: JSONPath) -> AnswerFormat {
        guard format.filteredChoices != nil else { return format }
        return format.mappingChoices { choices in
            choices.enumerated().map { index, choice in
                guard let rule = choice.visibleIf else { return choice }
                let rulePath = path / "choices" / index / "visibleIf"
                var checked = choice
                checked.visibleIf = checkPredicate(rule, at: rulePath, context: .beforeStep(step.identifier))
                if checked.visibleIf?.selectors.contains(where: { $0.stepIdentifier == step.identifier }) == true {
                    log.error(rulePath, "A choice's \"visibleIf\" is judged before its step is answered, so it cannot name an answer of its own step \"\(step.identifier)\".")
                }
                return checked
            }
        }
    }
}
