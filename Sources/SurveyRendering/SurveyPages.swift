import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// Every page of one survey, rendered once per step, form page, language and presentation,
/// with the per-request parts left as slots; plus the per-request rendering that fills them.
public final class SurveyPages: Sendable {
    /// The survey the pages draw: its task, navigator and version.
    public let survey: RunnableSurvey
    public var task: SurveyTask { survey.task }
    public var navigator: Navigator { survey.navigator }
    public let texts: RichTextCache
    /// The languages pages exist in; the first is the default.
    public let languages: [String]
    /// What the sanitizer removed from the survey's text, for `survey validate`.
    public let removedMarkup: [String]
    public var version: String { survey.version }
    public var surveyJSON: JSONValue { survey.json }
    /// A kiosk's clocks; nil when the survey has no kiosk pages.
    public let kiosk: KioskTiming?
    /// The survey's texts with links reduced to words, for kiosk pages.
    let kioskTexts: RichTextCache
    /// The signed copies of the survey's consent.
    public let consentCopy: ConsentCopy
    /// The steps with a choice that shows only on a condition: only their pages work out which.
    let stepsFilteringChoices: Set<String>
    let library: MustacheLibrary
    private let compiled: [PageKey: CompiledPage]

    struct PageKey: Hashable {
        let step: String
        let page: Int
        let language: String
        let presentation: Presentation
    }

    /// A page rendered once, with what a request needs to fill it.
    struct CompiledPage: Sendable {
        let template: PageTemplate
        /// Identifiers of the page's questions, longest first, to find which one a field belongs to.
        let questions: [String]
        /// The selectors its piped text names.
        var piped: [String] = []
    }

    public init(task: SurveyTask, library: MustacheLibrary, timeZone: TimeZone? = nil, checker: MarkupChecker? = nil,
                kiosk: KioskTiming? = nil, preview: Bool = false) throws {
        let survey = RunnableSurvey(task: task, timeZone: timeZone)
        self.survey = survey
        let navigator = survey.navigator
        let (cache, removed) = RichTextCache.build(for: task)
        texts = cache
        kioskTexts = cache.withoutLinks()
        consentCopy = ConsentCopy(task: task, navigator: navigator, texts: cache)
        self.kiosk = kiosk
        stepsFilteringChoices = Set(task.steps.filter { $0.questions.contains { $0.answerFormat.filteredChoices != nil } }.map(\.identifier))
        removedMarkup = removed
        languages = task.languages?.isEmpty == false ? task.languages! : ["en"]
        self.library = library
        var compiled: [PageKey: CompiledPage] = [:]
        let presentations: [Presentation] = preview ? [.preview] : kiosk == nil ? [.web] : [.web, .kiosk]
        for presentation in presentations {
            let place = Place(presentation: presentation, texts: presentation == .kiosk ? kioskTexts : cache, kiosk: kiosk)
            for language in languages {
                for step in task.steps {
                    if case .review = step.kind { continue }
                    // An allocation step is never drawn: the run passes it once its arm is drawn.
                    if step.allocation != nil { continue }
                    // The certification page shows what this run entered: it is drawn per request.
                    let drawnOnce = step.isConsentReview ? [ConsentReviewContent.signingPage] : Array(navigator.pages(of: step).indices)
                    for page in drawnOnce {
                        let built = try Self.compile(step: step, page: page, language: language, task: task, navigator: navigator,
                                                     place: place, library: library, checker: checker, fallback: languages)
                        compiled[PageKey(step: step.identifier, page: page, language: language, presentation: presentation)] = built
                    }
                }
            }
        }
        self.compiled = compiled
    }

    /// The best of the survey's languages for an Accept-Language list or an explicit choice.
    public func language(preferring wanted: [String]) -> String {
        for tag in wanted {
            let lowered = tag.lowercased()
            if let exact = languages.first(where: { $0.lowercased() == lowered }) { return exact }
            let primary = lowered.split(separator: "-").first.map(String.init) ?? lowered
            if let match = languages.first(where: { $0.lowercased().split(separator: "-").first.map(String.init) == primary }) { return match }
        }
        return languages[0]
    }

    // MARK: Per request

    /// The error summary; `naming` gives what to put before an issue's message: an instance's
    /// name ("Medicine 2: …"), or a grid row's question.
    static func errorSummary(_ issues: [AnswerIssue], library: MustacheLibrary, language: String,
                             naming: (AnswerIssue) -> String? = { _ in nil }) -> String {
        guard !issues.isEmpty else { return "" }
        let words = Catalog(language: language)
        let context: [String: Any] = [
            "words": words.wordsContext,
            "issues": issues.map { ["field": $0.field, "message": named(words.words(for: $0), naming($0))] },
        ]
        return library.render(context, withTemplate: "error-summary") ?? ""
    }

    static func errorMessages(_ issues: [AnswerIssue], questionOf: (String) -> String, library: MustacheLibrary, language: String,
                              naming: String? = nil) -> [String: String] {
        let words = Catalog(language: language)
        var grouped: [String: [String]] = [:]
        var order: [String] = []
        for issue in issues {
            let question = questionOf(issue.field)
            if grouped[question] == nil { order.append(question) }
            grouped[question, default: []].append(named(words.words(for: issue), naming))
        }
        var messages: [String: String] = [:]
        for question in order {
            let context: [String: Any] = [
                "id": PageIDs.error(question), "words": words.wordsContext,
                "messages": grouped[question]!.map { ["text": $0] },
            ]
            messages[question] = library.render(context, withTemplate: "error-message") ?? ""
        }
        return messages
    }

    /// Each question of a grid's page by its text, to name the row of a message.
    func gridRowNames(_ step: Step, page: CompiledPage, language: String) -> [String: String] {
        guard case .form(let content) = step.kind, content.isGrid else { return [:] }
        var names: [String: String] = [:]
        for question in content.formQuestions where page.questions.contains(question.identifier) {
            names[question.identifier] = texts.plain(question.text, language: language, fallback: languages)
        }
        return names
    }

    private static func named(_ message: String, _ name: String?) -> String {
        guard let name else { return message }
        return name + ": " + message
    }

    /// The page for the run's visit `index`: saved answers (or the submitted fields and their
    /// issues) filled in, hidden items left out.
    public func renderStep(run: TaskRun, visit index: Int, language: String, csrfToken: String, submitted: FormFields? = nil,
                           issues: [AnswerIssue] = [], returnToReview: Bool = false, context: AnswerContext,
                           presentation: Presentation = .web, panel: String = "", notice: String? = nil) -> String? {
        guard run.visits.indices.contains(index) else { return nil }
        let visit = run.visits[index]
        guard let step = navigator.step(of: visit) else { return nil }
        if step.isConsentReview, visit.page == ConsentReviewContent.certificationPage {
            return renderCertification(run: run, visit: index, language: language, csrfToken: csrfToken, context: context,
                                       presentation: presentation, panel: panel)
        }
        if case .review = step.kind {
            return renderReview(run: run, visit: index, language: language, csrfToken: csrfToken, context: context,
                                presentation: presentation, panel: panel)
        }
        if let repeating = step.repeating, visit.instance == nil {
            return renderRepeatPage(repeating, step: step, run: run, visit: index, language: language, csrfToken: csrfToken, submitted: submitted,
                                    issues: issues, returnToReview: returnToReview, context: context, presentation: presentation, panel: panel)
        }
        guard let page = compiled[PageKey(step: step.identifier, page: visit.page, language: language, presentation: presentation)]
            ?? compiled[PageKey(step: step.identifier, page: visit.page, language: languages[0], presentation: presentation)] else {
            return nil
        }
        var hidden = Set<String>()
        if case .form = step.kind {
            let questions = navigator.visibleQuestions(of: step, page: visit.page, visit: visit, in: run, index: index)
            let visible = Set(questions.map(\.identifier))
            hidden = Set(page.questions.filter { !visible.contains($0) })
            let notes = Set(navigator.hiddenNotes(of: step, page: visit.page, visit: visit, in: run, index: index))
            hidden.formUnion(notes.map(PageIDs.note))
            let drawn = Set(questions.filter { !$0.behaviour.isHidden }.map(\.identifier))
            hidden.formUnion(navigator.emptySections(of: step, page: visit.page, shown: drawn, hiddenNotes: notes).map(PageIDs.section))
        }
        var fields = submitted ?? savedFields(step: step, visit: visit, run: run, index: index, context: context)
        fields = fields.adding(shownValues(step: step, visit: visit, run: run, index: index, language: language, context: context))
        let questions = page.questions
        let questionOf: @Sendable (String) -> String = { field in
            questions.first { field == $0 || field.hasPrefix($0 + ".") } ?? field
        }
        // An instance of a repeating form: its name and index, and its name before each message.
        var instanceName: String?
        if let repeating = step.repeating, let instance = visit.instance {
            fields = fields.adding(instanceFields(repeating, visit: visit, language: language))
            instanceName = self.instanceName(repeating, instance, language: language)
        }
        var fill = PageFill(csrfToken: csrfToken, visit: index, fields: fields, issues: issues, hiddenItems: hidden,
                            canGoBack: !run.isFinished && (index > 0 || visit.page > 0 || visit.instanceCount > 0),
                            returnToReview: returnToReview, questionOfField: questionOf)
        fill.panel = panel
        fill.orders = choiceOrders(step: step, run: run)
        fill.hiddenChoices = hiddenChoices(step: step, visit: index, run: run)
        if !page.piped.isEmpty { fill.piped = pipedWords(page.piped, run: run, visit: index, language: language, context: context) }
        if navigator.isInBlock(step), let progress = navigator.progress(of: step, in: run) {
            fill.fields = fill.fields.adding([(PageIDs.progress, Catalog(language: language).progress(progress.current, of: progress.total))])
        }
        if !issues.isEmpty {
            // A grid's rows share their choices, so its summary says which row each message is for.
            let rows = gridRowNames(step, page: page, language: language)
            fill.errorSummary = Self.errorSummary(issues, library: library, language: language, naming: { issue in
                [instanceName, rows[questionOf(issue.field)]].compactMap { $0 }.joined(separator: ": ").nilIfEmpty
            })
            fill.errorMessages = Self.errorMessages(issues, questionOf: questionOf, library: library, language: language, naming: instanceName)
        } else if let notice {
            // A problem with the page as a whole (it could not be saved): the summary with no link.
            fill.errorSummary = library.render(["words": Catalog(language: language).wordsContext,
                                                "notice": Catalog(language: language)[notice]], withTemplate: "error-summary") ?? ""
        }
        return page.template.render(fill)
    }

    /// The fields of a visit's saved answers, or, for a question not yet answered, of its initial
    /// answer or its format's default.
    func savedFields(step: Step, visit: StepVisit, run: TaskRun, index: Int, context: AnswerContext) -> FormFields {
        var pairs: [(String, String)] = []
        for question in step.questions where !question.behaviour.isComputed {
            if let result = visit.result(question.identifier) {
                if let answer = result.answer {
                    pairs += AnswerFields.fields(for: answer, format: question.answerFormat, name: question.identifier, context: context)
                }
            } else if !visit.isAnswered {
                if let preset = navigator.presetAnswer(for: question, of: step, visit: visit, in: run, index: index) {
                    pairs += AnswerFields.fields(for: preset, format: question.answerFormat, name: question.identifier, context: context)
                } else {
                    pairs += AnswerFields.defaults(for: question.answerFormat, name: question.identifier)
                }
            }
        }
        return FormFields(pairs: pairs)
    }

    /// The words a read-only or calculated question shows for its value, worked out now.
    func shownValues(step: Step, visit: StepVisit, run: TaskRun, index: Int, language: String, context: AnswerContext) -> [(String, String)] {
        step.questions.compactMap { question -> (String, String)? in
            guard question.behaviour.isComputed, !question.behaviour.isHidden else { return nil }
            let answer = navigator.presetAnswer(for: question, of: step, visit: visit, in: run, index: index)
            let words = display(answer, format: question.answerFormat, language: language, context: context) ?? "–"
            return (PageIDs.shown(question.identifier), words)
        }
    }

    /// A read-only question shows its value as text instead of controls.
    static func readOnly(_ context: [String: Any], _ behaviour: QuestionBehaviour, name: String, slots: SlotTable) -> [String: Any] {
        guard behaviour.isComputed else { return context }
        var context = context
        context["readOnly"] = ["value": slots.marker(.text(PageIDs.shown(name)))]
        return context
    }
}

extension Catalog {
    /// Every word, for templates: `{{words.next}}`.
    var wordsContext: [String: String] {
        var all: [String: String] = [:]
        for key in Catalog.englishChrome.keys { all[key] = self[key] }
        for key in Catalog.englishKiosk.keys { all[key] = self[key] }
        return all
    }
}

extension String {
    /// The string, or nil when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
