import Foundation
import Mustache
import SurveyCore

extension SurveyPages {
    /// The review step: every step on the path so far with its answers, each with a Change link.
    func renderReview(run: TaskRun, visit index: Int, language: String, csrfToken: String, context: AnswerContext,
                      presentation: Presentation, panel: String = "") -> String? {
        let visit = run.visits[index]
        guard let step = navigator.step(of: visit), case .review(let review) = step.kind else { return nil }
        let fallback = languages
        let catalog = Catalog(language: language)
        let place = place(for: presentation)
        let texts = place.texts
        let rows = answerRows(run.visits[..<index], of: run, excludeInstructions: review.excludeInstructionSteps == true,
                              changeLinks: presentation.base(task.identifier), language: language, context: context)
        var stepContext: [String: Any] = [
            "identifier": step.identifier, "is_review": true, "rows": rows, "page": 0,
            "csrf": HTMLEscaping.escape(csrfToken), "visit": String(index), "returnFlag": "",
            "headingFocus": " autofocus=\"autofocus\"",
            "continueLabel": catalog[navigator.continueLabel(run).rawValue],
        ]
        if let progress = navigator.progress(of: step) { stepContext["progress"] = catalog.progress(progress.current, of: progress.total) }
        if let title = texts.html(step.title, language: language, fallback: fallback) { stepContext["heading"] = title.html }
        if let text = texts.html(step.text, language: language, fallback: fallback) { stepContext["text"] = text.html }
        let title = texts.plain(step.title, language: language, fallback: fallback) ?? catalog["yourAnswers"]
        return renderDrawnStep(stepContext, step: step, title: title, language: language, presentation: presentation,
                               canGoBack: !run.isFinished && index > 0, panel: panel)
    }

    /// A step page drawn per request (the review step, a repeating form's list and removal):
    /// its content in the `page` layout, with the error summary of `issues` above it.
    func renderDrawnStep(_ stepContext: [String: Any], step: Step, title: String, language: String, presentation: Presentation,
                         issues: [AnswerIssue] = [], canGoBack: Bool, panel: String) -> String? {
        let place = place(for: presentation)
        var page = Self.pageContext(task: task, language: language, texts: place.texts, fallback: languages, title: title,
                                    presentation: presentation)
        page["refresh"] = place.refresh(step, base: presentation.base(task.identifier))
        Self.switchingByPost(&page)
        page["isStep"] = true
        page["step"] = stepContext
        page["titlePrefix"] = issues.isEmpty ? "" : Catalog(language: language)["errorPrefix"] + " "
        page["errorSummary"] = Self.errorSummary(issues, library: library, language: language)
        page["backStart"] = canGoBack ? "" : "<!--"
        page["backEnd"] = canGoBack ? "" : "-->"
        page["panel"] = panel
        return library.render(page, withTemplate: "page")
    }

    /// The "your answers" page of a finished run: every step on its path with its answers.
    public func renderAnswers(run: TaskRun, language: String, context: AnswerContext) -> String {
        let rows = answerRows(run.visits[...], of: run, excludeInstructions: true, changeLinks: nil, language: language, context: context)
        return renderPage("answers", language: language, title: Catalog(language: language)["yourAnswers"],
                          values: ["rows": rows, "answersPDF": Presentation.web.base(task.identifier) + "/answers.pdf"])
    }

    /// One row per step of `visits` with its questions and answers in words; with Change links
    /// under `changeLinks`, the survey's address, when given.
    func answerRows(_ visits: Slice<VisitList>, of run: TaskRun, excludeInstructions: Bool, changeLinks: String?, language: String,
                    context: AnswerContext) -> [[String: Any]] {
        let fallback = languages
        let catalog = Catalog(language: language)
        var rows: [[String: Any]] = []
        for (position, earlier) in zip(visits.indices, visits) {
            guard let shown = navigator.step(of: earlier) else { continue }
            if case .review = shown.kind { continue }
            if shown.isInstructionLike, excludeInstructions || shown.isCompletion { continue }
            // What the participant never saw is not theirs to review or change.
            if shown.showsNothing { continue }
            // Piped text reads as it did on the step's own page.
            func plain(_ text: LocalizedText?) -> String? {
                texts.plain(text, language: language, fallback: fallback).map { piped($0, run: run, visit: position, language: language, context: context) }
            }
            let title = plain(shown.title) ?? shown.identifier
            if let repeating = shown.repeating {
                // A repeating form: a row per instance, each named ("Medicine 2"), each leading to the list.
                let name = instanceNamer(repeating, language: language)
                for (number, instance) in (earlier.instances ?? []).enumerated() {
                    // Piped text in an instance's questions reads that instance's answers, as on its page.
                    var seen = run
                    seen.visits[position].results = instance
                    seen.visits[position].instance = number
                    func pipedInInstance(_ text: LocalizedText?) -> String? {
                        texts.plain(text, language: language, fallback: fallback).map { piped($0, run: seen, visit: position, language: language, context: context) }
                    }
                    var row = answerRow(title: title + " – " + name(number), step: shown,
                                        answers: instance, plain: pipedInInstance, language: language, context: context)
                    if let changeLinks { row["changeURL"] = changeLinks + "/change/\(position)" }
                    rows.append(row)
                }
                continue
            }
            var answers: [[String: Any]] = []
            // A drawn signature is path data, not words: the rows leave it out.
            for question in shown.questions
            where !question.behaviour.isHidden && !(shown.isConsentReview && question.identifier == ConsentReviewContent.Field.drawing) {
                guard let result = earlier.result(question.identifier) else { continue }
                let label: String
                switch shown.kind {
                case .question(let content):
                    label = plain(content.question ?? shown.title) ?? question.identifier
                case .form(let content):
                    let item = content.items.first { if case .question(let q) = $0 { return q.identifier == question.identifier } else { return false } }
                    if case .question(let q)? = item {
                        label = plain(q.text) ?? question.identifier
                    } else {
                        label = question.identifier
                    }
                case .consentSharing:
                    label = texts.plain(shown.title, language: language, fallback: fallback) ?? catalog["consentSharingTitle"]
                case .consentReview:
                    let keys = [ConsentReviewContent.Field.consented: "consentDecision", ConsentReviewContent.Field.givenName: "consentGivenName",
                                ConsentReviewContent.Field.familyName: "consentFamilyName", ConsentReviewContent.Field.certified: "consentCertify"]
                    label = keys[question.identifier].map { catalog[$0] } ?? question.identifier
                default:
                    label = question.identifier
                }
                answers.append(["label": label, "answer": display(result.answer, format: question.answerFormat, language: language, context: context)
                    ?? catalog["notProvided"]])
            }
            var row: [String: Any] = ["title": title, "answers": answers, "hasAnswers": !answers.isEmpty]
            if let changeLinks { row["changeURL"] = changeLinks + "/change/\(position)" }
            rows.append(row)
        }
        return rows
    }

    /// A review row of one instance of a repeating form: its questions and answers in words.
    private func answerRow(title: String, step: Step, answers: [QuestionResult], plain: (LocalizedText?) -> String?, language: String,
                           context: AnswerContext) -> [String: Any] {
        guard case .form(let content) = step.kind else { return ["title": title, "answers": [], "hasAnswers": false] }
        let catalog = Catalog(language: language)
        let rows = content.formQuestions.filter { !$0.behaviour.isHidden }.compactMap { question -> [String: Any]? in
            guard let result = answers.first(where: { $0.identifier == question.identifier }) else { return nil }
            return ["label": plain(question.text) ?? question.identifier,
                    "answer": display(result.answer, format: question.answerFormat, language: language, context: context) ?? catalog["notProvided"]]
        }
        return ["title": title, "answers": rows, "hasAnswers": !rows.isEmpty]
    }

    /// An answer in words, for the review step and the "your answers" page.
    public func display(_ answer: Answer?, format: AnswerFormat, language: String, context: AnswerContext) -> String? {
        guard let answer else { return nil }
        let words = AnswerWords(catalog: Catalog(language: language), texts: texts, language: language, fallback: languages,
                                timeZone: context.timeZone)
        if answer == .dontKnow { return words.plain(format.dontKnow?.buttonText) ?? words.catalog["dontKnow"] }
        return format.view.display(answer, words)
    }

    /// A page that is not a step (the cancel confirmation, the thank-you page…), from the
    /// `page` layout with the named content flag set.
    /// `issues` put an error summary above the content and "Error:" before the title.
    public func renderPage(_ kind: String, language: String, title: String, values: [String: Any] = [:],
                           issues: [AnswerIssue] = [], presentation: Presentation = .web) -> String {
        var context = Self.pageContext(task: task, language: language, texts: place(for: presentation).texts, fallback: languages, title: title,
                                       presentation: presentation)
        context["is_" + kind] = true
        context["titlePrefix"] = issues.isEmpty ? "" : Catalog(language: language)["errorPrefix"] + " "
        // Markup the error-summary template made, with every value in it escaped there.
        context["errorSummary"] = Self.errorSummary(issues, library: library, language: language)
        context["backStart"] = "<!--"
        context["backEnd"] = "-->"
        for (key, value) in values { context[key] = value }
        return library.render(context, withTemplate: "page") ?? ""
    }
}

extension SurveyPages {
    /// What a kiosk's end page (finished, saved, cancelled) adds to its values: the refresh
    /// back to the start screen and the sentence that says when.
    public func kioskEndValues(language: String) -> [String: Any] {
        guard let kiosk, let text = place(for: .kiosk).returnText(Catalog(language: language)) else { return [:] }
        return ["refresh": "\(kiosk.returnAfter); url=" + Presentation.kiosk.base(task.identifier), "kioskReturn": text]
    }

    /// What a kiosk page of a turn in progress that is not a step (the cancel question) adds:
    /// the refresh to "Are you still there?" when it is left idle, as a step page has.
    public func kioskIdleValues(_ presentation: Presentation) -> [String: Any] {
        guard presentation == .kiosk, let kiosk else { return [:] }
        return ["refresh": "\(kiosk.idleAfter); url=" + Presentation.kiosk.base(task.identifier) + "/idle"]
    }
}
