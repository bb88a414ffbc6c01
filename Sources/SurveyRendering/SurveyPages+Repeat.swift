import Foundation
import Mustache
import SurveyCore

/// A repeating form's own pages, drawn per request: the list of instances with Change and
/// Remove and "Do you need to add another?", and a removal's confirmation; and what an
/// instance's page adds to the compiled form (docs/repeats-and-grids.md).
extension SurveyPages {
    /// "Medicine 2": an instance's name in headings and messages.
    func instanceName(_ repeating: FormRepeat, _ index: Int, language: String) -> String {
        instanceNamer(repeating, language: language)(index)
    }

    /// Names the instances of a form in a language, its label read once.
    func instanceNamer(_ repeating: FormRepeat, language: String) -> (Int) -> String {
        let catalog = Catalog(language: language)
        let label = texts.plain(repeating.label, language: language, fallback: languages) ?? ""
        let template = catalog["repeatInstance"]
        return { index in Catalog.fill(template: template, [label, catalog.number(Double(index + 1))]) }
    }

    /// The fields an instance's page shows: its name and its index.
    func instanceFields(_ repeating: FormRepeat, visit: StepVisit, language: String) -> [(String, String)] {
        guard let instance = visit.instance else { return [] }
        return [(PageIDs.instanceCaption, instanceName(repeating, instance, language: language)), (PageIDs.instanceField, String(instance))]
    }

    /// The list page, or a removal's confirmation, for a repeating form's visit that is not on an instance.
    func renderRepeatPage(_ repeating: FormRepeat, step: Step, run: TaskRun, visit index: Int, language: String, csrfToken: String,
                          submitted: FormFields?, issues: [AnswerIssue], returnToReview: Bool, context: AnswerContext,
                          presentation: Presentation, panel: String) -> String? {
        let visit = run.visits[index]
        let catalog = Catalog(language: language)
        let place = place(for: presentation)
        let stepTitle = place.texts.plain(step.title, language: language, fallback: languages)
        var stepContext: [String: Any] = [
            "identifier": step.identifier, "page": 0,
            "csrf": HTMLEscaping.escape(csrfToken), "visit": String(index),
            "returnFlag": returnToReview ? "<input type=\"hidden\" name=\"_return\" value=\"1\" />" : "",
            "headingFocus": issues.isEmpty ? " autofocus=\"autofocus\"" : "",
            "continueLabel": catalog["next"], "hasDontKnow": true,
        ]
        let title: String
        if case .removing(let number) = visit.repeatPlace, number < visit.instanceCount {
            let name = instanceName(repeating, number, language: language)
            title = Catalog.fill(template: catalog["repeatRemoveTitle"], [name])
            stepContext["is_repeatRemove"] = true
            stepContext["heading"] = HTMLEscaping.escape(title)
            stepContext["summary"] = instanceSummary(repeating, step: step, answers: visit.instances![number], language: language, context: context)
            stepContext["yesAction"] = RepeatAction.confirmRemove(number, true).field
            stepContext["noAction"] = RepeatAction.confirmRemove(number, false).field
            stepContext["hasDontKnow"] = false
        } else {
            title = stepTitle ?? place.texts.plain(repeating.label, language: language, fallback: languages) ?? step.identifier
            stepContext["is_repeatList"] = true
            stepContext["heading"] = place.texts.html(step.title, language: language, fallback: languages)?.html ?? HTMLEscaping.escape(title)
            if let text = place.texts.html(step.text, language: language, fallback: languages) { stepContext["text"] = text.html }
            let name = instanceNamer(repeating, language: language)
            let rows = (visit.instances ?? []).enumerated().map { number, answers -> [String: Any] in
                ["label": name(number),
                 "summary": instanceSummary(repeating, step: step, answers: answers, language: language, context: context),
                 "changeAction": RepeatAction.change(number).field, "removeAction": RepeatAction.remove(number).field]
            }
            stepContext["instances"] = rows
            stepContext["hasInstances"] = !rows.isEmpty
            if visit.instanceCount < repeating.maximum {
                let asked = place.texts.plain(repeating.addAnother, language: language, fallback: languages)
                    ?? catalog[visit.instanceCount == 0 ? "repeatAddFirst" : "repeatAddAnother"]
                let chosen = submitted?[RepeatAction.anotherField]
                var question: [String: Any] = [
                    "text": asked, "yes": chosen == "yes" ? " checked=\"checked\"" : "", "no": chosen == "no" ? " checked=\"checked\"" : "",
                ]
                if !issues.isEmpty {
                    question["error"] = Self.errorMessages(issues, questionOf: { $0 }, library: library, language: language)[RepeatAction.anotherField] ?? ""
                }
                stepContext["another"] = question
            } else {
                stepContext["maximumText"] = Catalog.fill(template: catalog["repeatMaximum"], [catalog.number(Double(repeating.maximum))])
            }
            if let progress = navigator.progress(of: step) { stepContext["progress"] = catalog.progress(progress.current, of: progress.total) }
        }
        let canGoBack = navigator.canGoBack({ var moved = run; moved.cursor = index; return moved }())
        return renderDrawnStep(stepContext, step: step, title: title, language: language, presentation: presentation, issues: issues,
                               canGoBack: canGoBack, panel: panel)
    }

    /// The words that name an instance on the list: its summary question's answer.
    func instanceSummary(_ repeating: FormRepeat, step: Step, answers: [QuestionResult], language: String, context: AnswerContext) -> String {
        let questions = step.questions.filter { !$0.behaviour.isHidden }
        guard let question = questions.first(where: { $0.identifier == repeating.summary }) ?? questions.first,
              let answer = answers.first(where: { $0.identifier == question.identifier })?.answer else {
            return Catalog(language: language)["notProvided"]
        }
        return display(answer, format: question.answerFormat, language: language, context: context) ?? Catalog(language: language)["notProvided"]
    }
}
