import Foundation

extension Navigator {
    /// The indices of a question's choices that do not show on visit `index` of a run: those whose
    /// `visibleIf` fails on the answers before the step. Empty when every choice shows.
    public func hiddenChoices(of format: AnswerFormat, step: Step, visit index: Int, in run: TaskRun) -> Set<Int> {
        guard let choices = format.filteredChoices, run.visits.indices.contains(index) else { return [] }
        let answers = result(of: run, through: index - 1, now: run.visits[index].startDate)
        let expression = judge(answers, step: step)
        // A cascade's choices share a handful of conditions (one per region): each of the first
        // few is judged once and looked up by equality, cheaper than hashing a predicate.
        var judged: [(rule: Predicate, holds: Bool)] = []
        return Set(choices.indices.filter { index in
            guard let rule = choices[index].visibleIf else { return false }
            if let known = judged.first(where: { $0.rule == rule }) { return !known.holds }
            let holds = rule.evaluate(on: answers, timeZone: timeZone, expression: expression)
            if judged.count < 16 { judged.append((rule, holds)) }
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
