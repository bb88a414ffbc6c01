import Foundation
import JSON

/// The checks of repeating forms and grids (docs/repeats-and-grids.md).
extension DefinitionChecker {
    func checkForm(_ content: FormContent, of step: Step, at path: JSONPath) {
        if let repeating = content.repeating { checkRepeat(repeating, content: content, at: path / "repeat") }
        if content.isGrid { checkGrid(content, at: path) }
    }

    private func checkRepeat(_ repeating: FormRepeat, content: FormContent, at path: JSONPath) {
        let shown = content.formQuestions.filter { !$0.behaviour.isHidden }
        if shown.isEmpty {
            log.error(path, "A repeating form needs a question that shows; every one of this form's is hidden.")
        }
        if let summary = repeating.summary, !content.formQuestions.contains(where: { $0.identifier == summary }) {
            var message = "\"summary\" names \"\(summary)\", which is not a question of this form."
            if let suggestion = Suggestion.closest(to: summary, in: content.formQuestions.map(\.identifier)) { message += " Did you mean \"\(suggestion)\"?" }
            log.error(path / "summary", message)
        }
    }

    /// A grid's rows share one list of choices, which heads its columns: every question is a
    /// text choice with the same choices (values and texts), none with an "other" box.
    private func checkGrid(_ content: FormContent, at path: JSONPath) {
        var shared: [TextChoice]?
        for (index, item) in content.items.enumerated() {
            let itemPath = path / "items" / index
            guard case .question(let question) = item else {
                log.error(itemPath, "A grid holds questions only: a section header or a note cannot sit between its rows.")
                continue
            }
            guard case .textChoice(let format) = question.answerFormat else {
                log.error(itemPath / "answerFormat", "Every question of a grid is a textChoice sharing one list of choices; \"\(question.identifier)\" is a \(question.answerFormat.typeName).")
                continue
            }
            if format.choices.contains(where: { $0.other != nil || $0.detailText != nil }) {
                log.error(itemPath / "answerFormat" / "choices", "A grid's choices head its columns, so none may have an \"other\" box or a \"detailText\".")
            }
            if format.shuffle == true {
                log.error(itemPath / "answerFormat" / "shuffle", "A grid's columns keep one order for every row; its choices cannot be shuffled.")
            }
            let plain = format.choices.map { TextChoice(text: $0.text, value: $0.value) }
            if let shared, shared != plain {
                log.error(itemPath / "answerFormat" / "choices", "Every row of a grid shares the first row's choices, the same values and texts in the same order; \"\(question.identifier)\" differs.")
            } else if shared == nil {
                shared = plain
            }
        }
    }

    /// A repeating form's count is known once its list is done: a rule inside the same form
    /// cannot test it.
    func checkInstances(_ target: DefinitionChecker.Target, at path: JSONPath, context: PredicateContext) {
        guard target.stepIndex >= 0, target.selector.itemIdentifier == nil, task.steps[target.stepIndex].repeating != nil,
              case .formItem(let stepIdentifier, _) = context, stepIdentifier == target.selector.stepIdentifier else { return }
        log.error(path, "\"\(target.selector.raw)\" counts the form's instances, which are known only when its list is done; an item of the same form cannot test it.")
    }
}
