import Foundation

extension Navigator {
    /// The indices of a question's choices that do not show on visit `index` of a run: those whose
    /// `visibleIf` fails on the answers before the step. Empty when every choice shows.
    public func hiddenChoices(of format: AnswerFormat, step: Step, visit index: Int, in run: TaskRun) -> Set<Int> {
        guard let choices = format.filteredChoices, run.visits.indices.contains(index) else { return [] }
        let answers = result(of: run, through: index - 1, now: run.visits[index].startDate)
        let expression = judge(answers, step: step)
        // A cascade's choices share a handful of conditions (one per region): each is judged once.
        var judged: [Predicate: Bool] = [:]
        return Set(choices.indices.filter { index in
            guard let rule = choices[index].visibleIf else { return false }
            if let known = judged[rule] { return !known }
            let holds = rule.evaluate(on: answers, timeZone: timeZone, expression: expression)
            judged[rule] = holds
            return !holds
        })
    }

    /// The format as this visit offers it: a choice that does not show cannot be chosen.
    func shownFormat(_ format: AnswerFormat, step: Step, visit index: Int, in run: TaskRun) -> AnswerFormat {
        let hidden = hiddenChoices(of: format, step: step, visit: index, in: run)
        guard !hidden.isEmpty else { return format }
        return format.mappingChoices { choices in choices.indices.filter { !hidden.contains($0) }.map { choices[$0] } }
    }
}
