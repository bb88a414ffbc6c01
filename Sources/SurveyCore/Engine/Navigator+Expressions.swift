import Foundation
import JSON

// Where the navigator meets FHIRPath (docs/fhir.md): `expression` predicates, notes shown on
// a condition, and answers the server works out (calculated, read-only, hidden, initial).

extension Navigator {
    /// Judges `expression` predicates on a result; false for every one when the survey has none.
    func judge(_ result: TaskResult, step: Step?) -> (String) -> Bool {
        guard let expressions else { return { _ in false } }
        let run = expressions.on(result, timeZone: timeZone)
        return { run.holds($0, step: step) }
    }

    /// The answers a page's conditions and computed answers are judged on: the steps before the
    /// visit, and the visit's own answers saved so far.
    func evaluation(before visit: StepVisit, in run: TaskRun, index: Int, extra: [QuestionResult] = []) -> TaskResult {
        var made = result(of: run, through: index - 1, now: visit.startDate)
        let replaced = Set(extra.map(\.identifier))
        made.results.append(StepResult(identifier: visit.stepIdentifier, startDate: visit.startDate, endDate: visit.startDate,
                                       results: visit.results.filter { !replaced.contains($0.identifier) } + extra))
        return made
    }

    func noteShows(_ rule: Predicate, of step: Step, page: Int, visit: StepVisit, in run: TaskRun, index: Int) -> Bool {
        let ownBefore = Set(pages(of: step).prefix(page).flatMap { Array($0) }.compactMap { position -> String? in
            if case .form(let content) = step.kind, case .question(let question) = content.items[position] { return question.identifier }
            return nil
        })
        var earlier = visit
        earlier.results = visit.results.filter { ownBefore.contains($0.identifier) }
        let answers = evaluation(before: earlier, in: run, index: index)
        return rule.evaluate(on: answers, timeZone: timeZone, expression: judge(answers, step: step))
    }

    /// The positions of a page's notes whose condition does not hold.
    public func hiddenNotes(of step: Step, page: Int, visit: StepVisit, in run: TaskRun, index: Int) -> [Int] {
        guard case .form(let content) = step.kind, pages(of: step).indices.contains(page) else { return [] }
        return pages(of: step)[page].filter { position in
            guard case .note(let note) = content.items[position], let rule = note.visibleIf else { return false }
            return !noteShows(rule, of: step, page: page, visit: visit, in: run, index: index)
        }
    }

    /// The positions of a page's section headers with nothing shown under them: every question
    /// hidden and every note's condition false (a disabled FHIR group draws no heading).
    /// `shown` are the page's questions that are drawn and `hiddenNotes` its notes that are not,
    /// as the caller already worked them out.
    public func emptySections(of step: Step, page: Int, shown visible: Set<String>, hiddenNotes: Set<Int>) -> [Int] {
        guard case .form(let content) = step.kind, pages(of: step).indices.contains(page) else { return [] }
        let range = pages(of: step)[page]
        var empty: [Int] = []
        var open: Int?
        var shown = false
        for position in range {
            switch content.items[position] {
            case .section:
                if let open, !shown { empty.append(open) }
                open = position
                shown = false
            case .question(let question):
                if visible.contains(question.identifier) { shown = true }
            case .note:
                if !hiddenNotes.contains(position) { shown = true }
            }
        }
        if let open, !shown { empty.append(open) }
        return empty
    }

    /// What a question shows before the participant answers it, or always for one the server
    /// works out: the calculated value; else the saved answer; else the initial value.
    public func presetAnswer(for question: Step.Question, of step: Step, visit: StepVisit, in run: TaskRun, index: Int) -> Answer? {
        computedAnswer(for: question, of: step, on: evaluation(before: visit, in: run, index: index),
                       saved: visit.result(question.identifier)?.answer)
    }

    /// The answer of a calculated, read-only or hidden question, or the initial answer of another.
    /// The answers an expression reads are built only when one is worked out, so a survey without
    /// expressions pays nothing here.
    func computedAnswer(for question: Step.Question, of step: Step, on answers: @autoclosure () -> TaskResult, saved: Answer?) -> Answer? {
        let behaviour = question.behaviour
        if let source = behaviour.calculatedExpression {
            guard let expressions else { return nil }
            let values = expressions.on(answers(), timeZone: timeZone).values(source, step: step, question: question)
            return AnswerConversion.answer(from: values, format: question.answerFormat, timeZone: timeZone)
        }
        if let saved { return saved }
        if let initial = behaviour.initial { return AnswerConversion.answer(fromJSON: initial, format: question.answerFormat) }
        if let source = behaviour.initialExpression, let expressions {
            let values = expressions.on(answers(), timeZone: timeZone).values(source, step: step, question: question)
            return AnswerConversion.answer(from: values, format: question.answerFormat, timeZone: timeZone)
        }
        return nil
    }

    /// Works calculated answers out again on visits after `index`, whose inputs may have changed.
    func refreshCalculated(_ run: inout TaskRun, after index: Int, now: Date) {
        guard expressions != nil, index + 1 < run.visits.count else { return }
        for position in (index + 1)..<run.visits.count {
            let visit = run.visits[position]
            guard let step = step(of: visit) else { continue }
            let calculated = step.questions.filter { $0.behaviour.calculatedExpression != nil }
            guard !calculated.isEmpty else { continue }
            var updated = visit
            for question in calculated {
                guard let slot = updated.results.firstIndex(where: { $0.identifier == question.identifier }) else { continue }
                let answers = evaluation(before: updated, in: run, index: position)
                updated.results[slot].answer = computedAnswer(for: question, of: step, on: answers, saved: nil)
            }
            run.visits[position] = updated
        }
    }
}
