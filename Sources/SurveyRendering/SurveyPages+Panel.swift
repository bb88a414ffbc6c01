import Foundation
import SurveyCore

// What a page shows of a panel's run: shuffled choices in the run's order and earlier answers,
// parameters and arms piped into its text (docs/panels.md).
extension SurveyPages {
    /// The run's order of each shuffled question of a step, by question name.
    func choiceOrders(step: Step, run: TaskRun) -> [String: [Int]] {
        guard let orders = run.choiceOrders else { return [:] }
        var byName: [String: [Int]] = [:]
        for question in step.questions where question.answerFormat.shuffles {
            if let order = orders[Navigator.orderKey(step: step, question: question.identifier)] { byName[question.identifier] = order }
        }
        return byName
    }

    /// The choices of each question of a step that this visit does not show, by question name.
    func hiddenChoices(step: Step, visit index: Int, run: TaskRun) -> [String: Set<Int>] {
        guard stepsFilteringChoices.contains(step.identifier) else { return [:] }
        var byName: [String: Set<Int>] = [:]
        for question in step.questions where question.answerFormat.filteredChoices != nil {
            byName[question.identifier] = navigator.hiddenChoices(of: question.answerFormat, step: step, visit: index, in: run)
        }
        return byName
    }

    /// The words each piped selector shows on visit `index` of a run: an answer as the
    /// participant saw it (a choice's text, a date or number in the page's language), a
    /// parameter's value, an arm's text. A selector with no answer is left out (its fallback shows).
    func pipedWords(_ selectors: [String], run: TaskRun, visit index: Int, language: String, context: AnswerContext) -> [String: String] {
        var result = navigator.result(of: run, through: index - 1, now: context.now)
        if run.visits.indices.contains(index), run.visits[index].instance != nil {
            // Inside a repeating form's instance, its own answers so far are piped.
            let visit = run.visits[index]
            result.results.append(StepResult(identifier: visit.stepIdentifier, startDate: visit.startDate, endDate: context.now,
                                             results: visit.results))
        }
        var words: [String: String] = [:]
        for raw in selectors {
            guard let (selector, format) = task.answer(named: raw) else { continue }
            if selector.stepIdentifier == SurveyParameter.selectorStep {
                if let value = result.parameters?[selector.resultIdentifier], !value.isEmpty { words[raw] = value }
                continue
            }
            guard let answer = result.questionResult(selector)?.answer,
                  let shown = display(answer, format: format, language: language, context: context), !shown.isEmpty else { continue }
            words[raw] = shown
        }
        return words
    }

    /// Plain text with its placeholders filled for visit `index` of a run (a review row, the
    /// answers page): an answer's words, else the fallback.
    func piped(_ plain: String, run: TaskRun, visit index: Int, language: String, context: AnswerContext) -> String {
        let found = Placeholder.find(in: plain)
        guard !found.isEmpty else { return plain }
        let words = pipedWords(found.map(\.placeholder.selector), run: run, visit: index, language: language, context: context)
        var text = plain
        for (range, placeholder) in found.reversed() { text.replaceSubrange(range, with: words[placeholder.selector] ?? placeholder.fallback ?? "") }
        return text
    }
}
