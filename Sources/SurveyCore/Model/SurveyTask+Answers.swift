import Foundation

extension SurveyTask {
    /// The answer a selector names as the survey file writes it (`stepId` for a question or
    /// allocation step, `stepId.itemId` for a form item, `parameters.NAME`), split into step and
    /// item, with the format its value is read in; nil when it names none. The checker resolves
    /// selectors with diagnostics when a survey loads; this is for a loaded survey's runs.
    public func answer(named raw: String) -> (selector: ResultSelector, format: AnswerFormat)? {
        if let name = SurveyParameter.name(inSelector: raw) {
            return parameter(name) == nil ? nil : (ResultSelector(step: SurveyParameter.selectorStep, item: name), .text(TextFormat()))
        }
        if let step = step(raw), let repeating = step.repeating {
            // A repeating form's own identifier: how many instances it has.
            return (ResultSelector(step: raw, item: nil), .numeric(NumericFormat(style: .integer, minimum: 0, maximum: Double(repeating.maximum))))
        }
        if let step = step(raw), let question = step.questions.first {
            switch step.kind {
            case .question, .allocation: return (ResultSelector(step: raw, item: nil), question.answerFormat)
            default: break
            }
        }
        for step in steps where raw.hasPrefix(step.identifier + ".") {
            let item = String(raw.dropFirst(step.identifier.count + 1))
            if let question = step.questions.first(where: { $0.identifier == item }) {
                return (ResultSelector(step: step.identifier, item: item), question.answerFormat)
            }
        }
        return nil
    }
}
