import Foundation
import JSON

/// What became of a submitted page.
public enum SubmissionOutcome: Sendable {
    /// The answers were saved and the run moved on.
    case accepted(TaskRun)
    /// Something must be corrected; nothing was saved. The issues are in field order.
    case rejected([AnswerIssue])
}

extension Navigator {
    /// Checks a submitted page of visit `index` and, when every answer is valid and every
    /// visible required question answered, saves it and moves on.
    public func answer(_ run: TaskRun, visit index: Int, fields: FormFields, context: AnswerContext,
                       returnToCurrent: Bool = false) -> SubmissionOutcome {
        guard run.visits.indices.contains(index), let step = step(of: run.visits[index]) else { return .accepted(run) }
        // Next on a repeating form's list, or Enter on its confirmation, is that page's own button.
        if step.repeating != nil {
            switch run.visits[index].repeatPlace {
            case .list: return act(.another, on: run, visit: index, fields: fields, now: context.now, returnToCurrent: returnToCurrent)
            case .removing(let number): return act(.confirmRemove(number, false), on: run, visit: index, fields: fields, now: context.now)
            case .instance: break
            }
        }
        if declines(step, page: run.visits[index].page, fields: fields) {
            return .accepted(decline(run, visit: index, now: context.now))
        }
        switch check(step, visit: index, in: run, fields: fields, context: context) {
        case .failure(let issues):
            return .rejected(issues.issues)
        case .success(let results):
            return .accepted(submit(run, visit: index, results: results, now: context.now, returnToCurrent: returnToCurrent))
        }
    }

    /// Issues of a page, as an error value.
    public struct PageIssues: Error, Sendable {
        public let issues: [AnswerIssue]
    }

    /// The typed results of one page, or its issues.
    public func check(_ step: Step, visit index: Int, in run: TaskRun, fields: FormFields,
                      context: AnswerContext) -> Result<[QuestionResult], PageIssues> {
        let visit = run.visits[index]
        let questions = visibleQuestions(of: step, page: visit.page, visit: visit, in: run, index: index)
        var results: [QuestionResult] = []
        var issues: [AnswerIssue] = []
        for question in questions {
            if question.behaviour.isComputed {
                // Not typed by the participant: worked out on the answers before it, this page's included.
                let answers = evaluation(before: visit, in: run, index: index, extra: results)
                let answer = computedAnswer(for: question, of: step, on: answers, saved: visit.result(question.identifier)?.answer)
                results.append(.make(for: question, answer: answer, startDate: visit.answerStart, endDate: context.now, timeZone: timeZone))
                continue
            }
            let answer: Answer?
            let format = shownFormat(question.answerFormat, step: step, visit: index, in: run)
            switch AnswerParser.parse(format, name: question.identifier, fields: fields, context: context) {
            case .invalid(let found):
                issues.append(contentsOf: found)
                continue
            case .empty:
                if !question.isOptional {
                    issues.append(AnswerIssue(field: Self.firstField(of: question, context: context), code: .required,
                                              problem: .missing(question.answerFormat.rules.missingAnswer)))
                    continue
                }
                answer = nil
            case .answer(let given):
                answer = given
            }
            results.append(.make(for: question, answer: answer, startDate: visit.answerStart, endDate: context.now, timeZone: timeZone))
        }
        issues += consentIssues(step, page: visit.page, fields: fields)
        return issues.isEmpty ? .success(results) : .failure(PageIssues(issues: issues))
    }

    /// The field an error summary links to: the first box of a question.
    public static func firstField(of question: Step.Question, context: AnswerContext) -> String {
        question.answerFormat.rules.firstField(name: question.identifier, context: context)
    }
}
