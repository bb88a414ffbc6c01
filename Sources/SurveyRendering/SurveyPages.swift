import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// A template mistake found when pages are built: the server refuses to start with it.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let template: String
    public let problems: [String]
    public var description: String { "\(template): " + problems.joined(separator: "; ") }
}

/// Where a survey's pages are shown: in a participant's own browser, on a clinic's shared
/// kiosk, whose pages live under `/kiosk/`, have large targets, no links out, autocomplete
/// off, and turn into "Are you still there?" when left idle; or in a researcher's preview,
/// beside a panel that says how the run got there.
public enum Presentation: Sendable, Hashable {
    case web
    case kiosk
    case preview

    /// The address of a survey's pages.
    public func base(_ survey: String) -> String {
        switch self {
        case .web: "/surveys/" + survey
        case .kiosk: "/kiosk/" + survey
        case .preview: "/preview/" + survey + "/run"
        }
    }
}

/// A kiosk's clocks, in seconds: how long a step page waits before it asks "Are you still
/// there?", and how long an end page shows before the start screen comes back.
public struct KioskTiming: Sendable, Hashable {
    public let idleAfter: Int
    public let returnAfter: Int

    public init(idleAfter: Int, returnAfter: Int) {
        self.idleAfter = idleAfter
        self.returnAfter = returnAfter
    }
}

/// Every page of one survey, rendered once per step, form page, language and presentation,
/// with the per-request parts left as slots; plus the per-request rendering that fills them.
public final class SurveyPages: Sendable {
    public let task: SurveyTask
    public let navigator: Navigator
    public let texts: RichTextCache
    /// The languages pages exist in; the first is the default.
    public let languages: [String]
    /// What the sanitizer removed from the survey's text, for `survey validate`.
    public let removedMarkup: [String]
    /// The survey's version (`SurveyTask.version`), which each run records.
    public let version: String
    /// The survey as a format v1 document, for the FHIR exports.
    public let surveyJSON: JSONValue
    /// A kiosk's clocks; nil when the survey has no kiosk pages.
    public let kiosk: KioskTiming?
    /// The survey's texts with links reduced to words, for kiosk pages.
    let kioskTexts: RichTextCache
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
    }

    public init(task: SurveyTask, library: MustacheLibrary, timeZone: TimeZone? = nil, checker: MarkupChecker? = nil,
                kiosk: KioskTiming? = nil, preview: Bool = false) throws {
        version = task.version
        surveyJSON = task.json
        self.task = task
        navigator = Navigator(task: task, timeZone: timeZone)
        let (cache, removed) = RichTextCache.build(for: task)
        texts = cache
        kioskTexts = cache.withoutLinks()
        self.kiosk = kiosk
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
                    for page in navigator.pages(of: step).indices {
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

    // MARK: Building

    /// What a page's presentation changes in it: its address, its texts, and on a kiosk the
    /// refresh of a step page.
    struct Place {
        let presentation: Presentation
        let texts: RichTextCache
        let kiosk: KioskTiming?

        /// On a kiosk, where a step page goes by itself: a completion step back to the start
        /// screen, any other to "Are you still there?".
        func refresh(_ step: Step, base: String) -> String? {
            guard presentation == .kiosk, let kiosk else { return nil }
            return step.isCompletion ? "\(kiosk.returnAfter); url=\(base)" : "\(kiosk.idleAfter); url=\(base)/idle"
        }

        /// On a kiosk's end pages, when the start screen comes back.
        func returnText(_ catalog: Catalog) -> String? {
            guard presentation == .kiosk, let kiosk else { return nil }
            return catalog["kioskReturnText"].replacingOccurrences(of: "%@", with: catalog.number(Double(kiosk.returnAfter)))
        }
    }

    func place(for presentation: Presentation) -> Place {
        Place(presentation: presentation, texts: presentation == .kiosk ? kioskTexts : texts, kiosk: kiosk)
    }

    static func pageContext(task: SurveyTask, language: String, texts: RichTextCache, fallback: [String], title: String,
                            presentation: Presentation) -> [String: Any] {
        let surveyTitle = texts.plain(task.title, language: language, fallback: fallback) ?? task.identifier
        var context: [String: Any] = [
            "lang": language, "dir": Catalog.isRightToLeft(language) ? "rtl" : "ltr",
            "title": title, "surveyTitle": surveyTitle, "surveyIdentifier": task.identifier,
            "action": presentation.base(task.identifier),
            "words": Catalog(language: language).wordsContext,
        ]
        if presentation == .kiosk { context["kiosk"] = true }
        if presentation == .preview {
            context["preview"] = true
            context["pw"] = PreviewChrome.words
        }
        context["panel"] = ""
        // The switcher offers the survey's other languages, each by its own name.
        let others = fallback.filter { $0 != language }
        if !others.isEmpty {
            context["switcher"] = ["byPost": false, "languages": others.map { tag -> [String: String] in
                ["lang": tag, "dir": Catalog.isRightToLeft(tag) ? "rtl" : "ltr", "name": Catalog(language: tag)["languageName"]]
            }]
        }
        return context
    }

    /// A step page's switcher posts its form, so that what was typed on it is kept.
    static func switchingByPost(_ context: inout [String: Any]) {
        guard var switcher = context["switcher"] as? [String: Any] else { return }
        switcher["byPost"] = true
        context["switcher"] = switcher
    }

    static func compile(step: Step, page: Int, language: String, task: SurveyTask, navigator: Navigator, place: Place,
                        library: MustacheLibrary, checker: MarkupChecker?, fallback: [String]) throws -> CompiledPage {
        let texts = place.texts
        let slots = SlotTable()
        let catalog = Catalog(language: language)
        func html(_ text: LocalizedText?) -> String? { texts.html(text, language: language, fallback: fallback)?.html }
        let measurement: (MeasurementSystem?) -> MeasurementSystem = { AnswerContext(language: language).resolve($0) }
        var questions: [String] = []
        var stepContext: [String: Any] = [
            "identifier": step.identifier, "is_" + step.kind.typeName: true, "page": page,
            "csrf": slots.marker(.csrf), "visit": slots.marker(.visit), "returnFlag": slots.marker(.returnFlag),
            "headingFocus": slots.marker(.headingFocus),
        ]
        if let title = html(step.title) { stepContext["heading"] = title }
        if let text = html(step.text) { stepContext["text"] = text }
        if let detail = html(step.detailText) { stepContext["detailText"] = detail }
        if let footnote = html(step.footnote) { stepContext["footnote"] = footnote }
        if let image = step.image {
            stepContext["image"] = ["src": "/" + image.drop { $0 == "/" }, "alt": texts.plain(step.imageAlt, language: language, fallback: fallback) ?? ""]
        }
        if let learnMore = step.learnMore {
            stepContext["learnMore"] = ["title": html(learnMore.title) ?? catalog["learnMore"], "text": html(learnMore.text) ?? ""]
        }
        var pageTitle = texts.plain(step.title, language: language, fallback: fallback) ?? ""
        switch step.kind {
        case .question(let content):
            let label = texts.html(content.question, language: language, fallback: fallback) ?? texts.html(step.title, language: language, fallback: fallback)
            // The question is the page's heading; a title beside a separate question becomes its caption.
            if content.question != nil, let heading = stepContext["heading"] { stepContext["caption"] = heading }
            stepContext["heading"] = nil
            let model = QuestionViewModel(
                name: step.identifier, format: content.answerFormat, label: label, detail: nil,
                placeholder: texts.plain(content.placeholder, language: language, fallback: fallback),
                isOptional: step.isOptional, isHeading: true, language: language, catalog: catalog, texts: texts,
                fallback: fallback, slots: slots, measurement: measurement)
            stepContext["question"] = Self.readOnly(model.context(), content.behaviour, name: step.identifier, slots: slots)
            questions.append(step.identifier)
            if let plainLabel = label.map({ PlainText.from($0.html) }), !plainLabel.isEmpty { pageTitle = plainLabel }
        case .form(let content):
            let range = navigator.pages(of: step)[page]
            var items: [[String: Any]] = []
            var openSection: [String: Any]?
            for position in range {
                switch content.items[position] {
                case .section(let header):
                    if let section = openSection { items.append(section) }
                    var section: [String: Any] = [
                        "isSection": true, "title": html(header.sectionTitle) ?? "", "questions": [[String: Any]](),
                        "itemStart": slots.marker(.itemStart(PageIDs.section(position))), "itemEnd": slots.marker(.itemEnd),
                    ]
                    if let detail = html(header.detailText) { section["detail"] = detail }
                    openSection = section
                case .note(let note):
                    let entry: [String: Any] = [
                        "isNote": true, "note": html(note.note) ?? "",
                        "itemStart": slots.marker(.itemStart(PageIDs.note(position))), "itemEnd": slots.marker(.itemEnd),
                    ]
                    if var section = openSection {
                        section["questions"] = (section["questions"] as? [[String: Any]] ?? []) + [entry]
                        openSection = section
                    } else {
                        items.append(["isQuestion": true, "question": entry])
                    }
                case .question(let question) where question.behaviour.isHidden:
                    continue
                case .question(let question):
                    let model = QuestionViewModel(
                        name: question.identifier, format: question.answerFormat,
                        label: texts.html(question.text, language: language, fallback: fallback),
                        detail: texts.html(question.detailText, language: language, fallback: fallback),
                        placeholder: texts.plain(question.placeholder, language: language, fallback: fallback),
                        isOptional: question.isOptional, isHeading: false, language: language, catalog: catalog, texts: texts,
                        fallback: fallback, slots: slots, measurement: measurement)
                    var entry = Self.readOnly(model.context(), question.behaviour, name: question.identifier, slots: slots)
                    entry["itemStart"] = slots.marker(.itemStart(question.identifier))
                    entry["itemEnd"] = slots.marker(.itemEnd)
                    questions.append(question.identifier)
                    if var section = openSection {
                        var list = section["questions"] as? [[String: Any]] ?? []
                        list.append(entry)
                        section["questions"] = list
                        openSection = section
                    } else {
                        items.append(["isQuestion": true, "question": entry])
                    }
                }
            }
            if let section = openSection { items.append(section) }
            stepContext["items"] = items
            if let footer = html(content.footerText) { stepContext["footerText"] = footer }
        case .videoInstruction(let content):
            var video: [String: Any] = [:]
            if let url = content.videoURL { video["url"] = url }
            if let captions = content.captionsURL { video["captions"] = captions }
            stepContext["video"] = video
        case .completion:
            stepContext["kioskReturn"] = place.returnText(catalog)
            // A kiosk's runs give their results only to the API and the exports.
            if task.showAnswersOnCompletion == true, place.presentation == .web {
                stepContext["answersURL"] = place.presentation.base(task.identifier) + "/answers"
            }
        case .instruction, .review:
            break
        }
        if pageTitle.isEmpty { pageTitle = texts.plain(task.title, language: language, fallback: fallback) ?? task.identifier }
        let continueLabel: ContinueLabel = {
            var probe = TaskRun(taskIdentifier: task.identifier, taskRunUUID: UUID(), startDate: Date(),
                                visits: [StepVisit(stepIdentifier: step.identifier, startDate: Date(), page: page)])
            probe.cursor = 0
            return navigator.continueLabel(probe)
        }()
        stepContext["continueLabel"] = catalog[continueLabel.rawValue]
        stepContext["isDone"] = continueLabel == .done
        stepContext["canSkip"] = step.isOptional && (step.questions.isEmpty == false)
        // Enter in a text box presses the form's first submit button: where a don't-know button
        // comes before Next, a hidden copy of Next goes first.
        stepContext["hasDontKnow"] = step.questions.contains { $0.answerFormat.showsDontKnow }
        if let progress = navigator.progress(of: step) { stepContext["progress"] = catalog.progress(progress.current, of: progress.total) }
        var context = pageContext(task: task, language: language, texts: texts, fallback: fallback, title: pageTitle,
                                  presentation: place.presentation)
        context["refresh"] = place.refresh(step, base: place.presentation.base(task.identifier))
        if !step.isCompletion { switchingByPost(&context) }
        context["isStep"] = true
        context["step"] = stepContext
        context["titlePrefix"] = slots.marker(.titlePrefix)
        context["errorSummary"] = slots.marker(.errorSummary)
        context["backStart"] = slots.marker(.backStart)
        context["backEnd"] = slots.marker(.backEnd)
        context["panel"] = slots.marker(.panel)
        guard let rendered = library.render(context, withTemplate: "page") else {
            throw TemplateError(template: "page", problems: ["the template \"page\" is missing"])
        }
        let template = PageTemplate(rendered: rendered, slots: slots.slots, errorPrefix: Catalog(language: language)["errorPrefix"] + " ")
        let compiled = CompiledPage(template: template, questions: questions.sorted { $0.count > $1.count })
        if let checker {
            // Fill the slots with a sample request, with an error on every question, and check the markup.
            let fill = sampleFill(for: compiled, library: library, language: language)
            let problems = checker.check(template.render(fill))
            if !problems.isEmpty {
                throw TemplateError(template: "page for step \"\(step.identifier)\" (page \(page + 1), \(language), \(place.presentation))",
                                    problems: problems)
            }
        }
        return compiled
    }

    static func sampleFill(for page: CompiledPage, library: MustacheLibrary, language: String) -> PageFill {
        let issues = page.questions.map { AnswerIssue(field: $0, code: .required, problem: .missing(.text)) }
        var fill = PageFill(csrfToken: "sample-token", visit: 1, issues: issues, canGoBack: true, returnToReview: true,
                            questionOfField: { $0 })
        fill.errorSummary = errorSummary(issues, library: library, language: language)
        fill.errorMessages = errorMessages(issues, questionOf: { $0 }, library: library, language: language)
        return fill
    }

    // MARK: Per request

    static func errorSummary(_ issues: [AnswerIssue], library: MustacheLibrary, language: String) -> String {
        guard !issues.isEmpty else { return "" }
        let words = Catalog(language: language)
        let context: [String: Any] = [
            "words": words.wordsContext,
            "issues": issues.map { ["field": $0.field, "message": words.words(for: $0)] },
        ]
        return library.render(context, withTemplate: "error-summary") ?? ""
    }

    static func errorMessages(_ issues: [AnswerIssue], questionOf: (String) -> String, library: MustacheLibrary, language: String) -> [String: String] {
        let words = Catalog(language: language)
        var grouped: [String: [String]] = [:]
        var order: [String] = []
        for issue in issues {
            let question = questionOf(issue.field)
            if grouped[question] == nil { order.append(question) }
            grouped[question, default: []].append(words.words(for: issue))
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

    /// The page for the run's visit `index`: saved answers (or the submitted fields and their
    /// issues) filled in, hidden items left out.
    public func renderStep(run: TaskRun, visit index: Int, language: String, csrfToken: String, submitted: FormFields? = nil,
                           issues: [AnswerIssue] = [], returnToReview: Bool = false, context: AnswerContext,
                           presentation: Presentation = .web, panel: String = "", notice: String? = nil) -> String? {
        guard run.visits.indices.contains(index) else { return nil }
        let visit = run.visits[index]
        guard let step = navigator.step(of: visit) else { return nil }
        if case .review = step.kind {
            return renderReview(run: run, visit: index, language: language, csrfToken: csrfToken, context: context,
                                presentation: presentation, panel: panel)
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
        var fill = PageFill(csrfToken: csrfToken, visit: index, fields: fields, issues: issues, hiddenItems: hidden,
                            canGoBack: !run.isFinished && (index > 0 || visit.page > 0),
                            returnToReview: returnToReview, questionOfField: questionOf)
        fill.panel = panel
        if !issues.isEmpty {
            fill.errorSummary = Self.errorSummary(issues, library: library, language: language)
            fill.errorMessages = Self.errorMessages(issues, questionOf: questionOf, library: library, language: language)
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
