import Foundation
import Mustache
import SurveyCore

/// One step page rendered once: the step's own parts, its question or form items, the buttons
/// and progress, then the page around them. Slot markers are taken in page order, so each part
/// is built in turn.
extension SurveyPages {
    /// What every part of one page is built with: its language, texts and slots.
    struct PageParts {
        let language: String
        let fallback: [String]
        let texts: RichTextCache
        let slots: SlotTable
        let catalog: Catalog

        func html(_ text: LocalizedText?) -> String? { texts.html(text, language: language, fallback: fallback)?.html }
        func plain(_ text: LocalizedText?) -> String? { texts.plain(text, language: language, fallback: fallback) }

        func question(name: String, format: AnswerFormat, label: SanitizedHTML?, detail: SanitizedHTML?,
                      placeholder: LocalizedText?, isOptional: Bool, isHeading: Bool) -> QuestionViewModel {
            let language = language
            return QuestionViewModel(
                name: name, format: format, label: label, detail: detail, placeholder: plain(placeholder),
                isOptional: isOptional, isHeading: isHeading, language: language, catalog: catalog, texts: texts,
                fallback: fallback, slots: slots, measurement: { AnswerContext(language: language).resolve($0) })
        }
    }

    static func compile(step: Step, page: Int, language: String, task: SurveyTask, navigator: Navigator, place: Place,
                        library: MustacheLibrary, checker: MarkupChecker?, fallback: [String]) throws -> CompiledPage {
        let parts = PageParts(language: language, fallback: fallback, texts: place.texts, slots: SlotTable(),
                              catalog: Catalog(language: language))
        var stepContext = stepHeader(step, page: page, parts: parts)
        var questions: [String] = []
        var pageTitle = parts.plain(step.title) ?? ""
        switch step.kind {
        case .question(let content):
            let label = parts.texts.html(content.question, language: language, fallback: fallback)
                ?? parts.texts.html(step.title, language: language, fallback: fallback)
            // The question is the page's heading; a title beside a separate question becomes its caption.
            if content.question != nil, let heading = stepContext["heading"] { stepContext["caption"] = heading }
            stepContext["heading"] = nil
            let model = parts.question(name: step.identifier, format: content.answerFormat, label: label, detail: nil,
                                       placeholder: content.placeholder, isOptional: step.isOptional, isHeading: true)
            stepContext["question"] = Self.readOnly(model.context(), content.behaviour, name: step.identifier, slots: parts.slots)
            questions.append(step.identifier)
            if let plainLabel = label.map({ PlainText.from($0.html) }), !plainLabel.isEmpty { pageTitle = plainLabel }
        case .form(let content):
            let (items, shown) = formItems(content, range: navigator.pages(of: step)[page], parts: parts)
            questions += shown
            stepContext["items"] = items
            if let footer = parts.html(content.footerText) { stepContext["footerText"] = footer }
            if content.repeating != nil {
                // Which instance the page is for is the request's: "Medication 2", and its index.
                stepContext["instanceCaption"] = parts.slots.marker(.text(PageIDs.instanceCaption))
                stepContext["instanceField"] = parts.slots.marker(.value(PageIDs.instanceField))
            }
            if content.isGrid { stepContext["grid"] = gridHeader(content, parts: parts) }
        case .videoInstruction(let content):
            var video: [String: Any] = [:]
            if let url = content.videoURL { video["url"] = url }
            if let captions = content.captionsURL { video["captions"] = captions }
            stepContext["video"] = video
        case .completion:
            stepContext["kioskReturn"] = place.returnText(parts.catalog)
            // A kiosk's runs give their results only to the API and the exports.
            if task.showAnswersOnCompletion == true, place.presentation == .web {
                stepContext["answersURL"] = place.presentation.base(task.identifier) + "/answers"
            }
        case .visualConsent:
            pageTitle = visualConsentPage(page, document: task.consentDocument, into: &stepContext, parts: parts)
        case .consentSharing(let content):
            stepContext["heading"] = nil
            stepContext["question"] = sharingQuestion(content, step: step, parts: parts)
            questions.append(step.identifier)
            pageTitle = parts.plain(step.title) ?? parts.catalog["consentSharingTitle"]
        case .consentReview(let content):
            let (shown, title) = signingPage(content, document: task.consentDocument, into: &stepContext, parts: parts)
            questions += shown
            pageTitle = title
        case .instruction, .review, .allocation:
            break
        }
        if pageTitle.isEmpty { pageTitle = parts.plain(task.title) ?? task.identifier }
        // Each instance's page has a title of its own: "Medicine 2 – Your medicines".
        if step.repeating != nil { pageTitle = parts.slots.marker(.text(PageIDs.instanceCaption)) + " – " + pageTitle }
        addButtons(to: &stepContext, step: step, page: page, task: task, navigator: navigator, catalog: parts.catalog, slots: parts.slots)
        var context = pageContext(task: task, language: language, texts: parts.texts, fallback: fallback, title: pageTitle,
                                  presentation: place.presentation)
        context["refresh"] = place.refresh(step, base: place.presentation.base(task.identifier))
        if !step.isCompletion { switchingByPost(&context) }
        context["isStep"] = true
        context["step"] = stepContext
        for (key, slot) in [("titlePrefix", Slot.titlePrefix), ("errorSummary", .errorSummary), ("backStart", .backStart),
                            ("backEnd", .backEnd), ("panel", .panel)] {
            context[key] = parts.slots.marker(slot)
        }
        let compiled = try render(context, questions: questions, slots: parts.slots, library: library, language: language)
        if let checker {
            // Fill the slots with a sample request, with an error on every question, and check the markup.
            let problems = checker.check(compiled.template.render(sampleFill(for: compiled, library: library, language: language)))
            if !problems.isEmpty {
                throw TemplateError(template: "page for step \"\(step.identifier)\" (page \(page + 1), \(language), \(place.presentation))",
                                    problems: problems)
            }
        }
        return compiled
    }

    /// The parts every step page has: its identity, slots for the request, texts, image and "learn more".
    static func stepHeader(_ step: Step, page: Int, parts: PageParts) -> [String: Any] {
        let slots = parts.slots
        var context: [String: Any] = [
            "identifier": step.identifier, "is_" + step.kind.typeName: true, "page": page,
            "csrf": slots.marker(.csrf), "visit": slots.marker(.visit), "returnFlag": slots.marker(.returnFlag),
            "headingFocus": slots.marker(.headingFocus),
        ]
        if let title = parts.html(step.title) { context["heading"] = title }
        if let text = parts.html(step.text) { context["text"] = text }
        if let detail = parts.html(step.detailText) { context["detailText"] = detail }
        if let footnote = parts.html(step.footnote) { context["footnote"] = footnote }
        if let image = step.image {
            context["image"] = ["src": "/" + image.drop { $0 == "/" }, "alt": parts.plain(step.imageAlt) ?? ""]
        }
        if let learnMore = step.learnMore {
            context["learnMore"] = ["title": parts.html(learnMore.title) ?? parts.catalog["learnMore"], "text": parts.html(learnMore.text) ?? ""]
        }
        return context
    }

    /// A form page's items in order, questions grouped under the section above them, and the
    /// identifiers of the questions shown.
    static func formItems(_ content: FormContent, range: Range<Int>, parts: PageParts) -> ([[String: Any]], [String]) {
        let slots = parts.slots
        var items: [[String: Any]] = []
        var questions: [String] = []
        var openSection: [String: Any]?
        func add(_ entry: [String: Any]) {
            if var section = openSection {
                section["questions"] = (section["questions"] as? [[String: Any]] ?? []) + [entry]
                openSection = section
            } else {
                items.append(["isQuestion": true, "question": entry])
            }
        }
        for position in range {
            switch content.items[position] {
            case .section(let header):
                if let section = openSection { items.append(section) }
                var section: [String: Any] = [
                    "isSection": true, "title": parts.html(header.sectionTitle) ?? "", "questions": [[String: Any]](),
                    "itemStart": slots.marker(.itemStart(PageIDs.section(position))), "itemEnd": slots.marker(.itemEnd),
                ]
                if let detail = parts.html(header.detailText) { section["detail"] = detail }
                openSection = section
            case .note(let note):
                add(["isNote": true, "note": parts.html(note.note) ?? "",
                     "itemStart": slots.marker(.itemStart(PageIDs.note(position))), "itemEnd": slots.marker(.itemEnd)])
            case .question(let question) where question.behaviour.isHidden:
                continue
            case .question(let question):
                let model = parts.question(
                    name: question.identifier, format: question.answerFormat,
                    label: parts.texts.html(question.text, language: parts.language, fallback: parts.fallback),
                    detail: parts.texts.html(question.detailText, language: parts.language, fallback: parts.fallback),
                    placeholder: question.placeholder, isOptional: question.isOptional, isHeading: false)
                var entry = Self.readOnly(model.context(), question.behaviour, name: question.identifier, slots: slots)
                entry["itemStart"] = slots.marker(.itemStart(question.identifier))
                entry["itemEnd"] = slots.marker(.itemEnd)
                questions.append(question.identifier)
                add(entry)
            }
        }
        if let section = openSection { items.append(section) }
        return (items, questions)
    }

    /// The page's buttons and progress: what Next says, whether Skip and "don't know" show.
    static func addButtons(to context: inout [String: Any], step: Step, page: Int, task: SurveyTask, navigator: Navigator,
                           catalog: Catalog, slots: SlotTable) {
        var probe = TaskRun(taskIdentifier: task.identifier, taskRunUUID: UUID(), startDate: Date(),
                            visits: [StepVisit(stepIdentifier: step.identifier, startDate: Date(), page: page)])
        probe.cursor = 0
        let continueLabel = navigator.continueLabel(probe)
        context["continueLabel"] = catalog[continueLabel.rawValue]
        context["isDone"] = continueLabel == .done
        // A repeating form's list decides when it is done: its pages have no Skip.
        context["canSkip"] = step.isOptional && (step.questions.isEmpty == false) && step.repeating == nil
        // Enter in a text box presses the form's first submit button: where a don't-know button
        // comes before Next, a hidden copy of Next goes first.
        context["hasDontKnow"] = step.questions.contains { $0.answerFormat.showsDontKnow }
        if let progress = navigator.progress(of: step) {
            // A block's step has the place the run's order gives it: its label is filled per request.
            context["progress"] = navigator.isInBlock(step) ? slots.marker(.text(PageIDs.progress)) : catalog.progress(progress.current, of: progress.total)
        }
    }

    /// The page rendered through the `page` template, its slots kept for each request.
    static func render(_ context: [String: Any], questions: [String], slots: SlotTable, library: MustacheLibrary,
                       language: String) throws -> CompiledPage {
        guard var rendered = library.render(context, withTemplate: "page") else {
            throw TemplateError(template: "page", problems: ["the template \"page\" is missing"])
        }
        // Piped text: each placeholder becomes a slot the run's answers fill.
        var piped: [String] = []
        for (range, placeholder) in Placeholder.find(in: rendered).reversed() {
            rendered.replaceSubrange(range, with: slots.marker(.piped(selector: placeholder.selector, fallbackHTML: placeholder.fallback ?? "")))
            if !piped.contains(placeholder.selector) { piped.append(placeholder.selector) }
        }
        let template = PageTemplate(rendered: rendered, slots: slots.slots, errorPrefix: Catalog(language: language)["errorPrefix"] + " ")
        return CompiledPage(template: template, questions: questions.sorted { $0.count > $1.count }, piped: piped)
    }
}

extension SurveyPages {
    /// A grid's header row: the choices its rows share, once, as column headings.
    static func gridHeader(_ content: FormContent, parts: PageParts) -> [String: Any] {
        guard case .textChoice(let format)? = content.formQuestions.first?.answerFormat else { return [:] }
        return ["columns": format.choices.map { ["text": parts.html($0.text) ?? $0.value.formValue] }]
    }
}
