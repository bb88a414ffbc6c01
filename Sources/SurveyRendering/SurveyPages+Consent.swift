import Foundation
import Mustache
import SurveyCore

/// The consent steps' pages: a section of the visual consent, the sharing question, and the
/// review with its signature, all rendered once; the certification page per request, since it
/// shows what the participant entered.
extension SurveyPages {
    /// A section's title: the author's, else the catalog's for a standard type.
    static func sectionTitle(_ section: ConsentSection, parts: PageParts) -> String {
        parts.html(section.title) ?? HTMLEscaping.escape(parts.catalog["consentSection." + section.type.rawValue])
    }

    /// One page of the visual consent step: the section's title, its summary, its content behind "Learn more".
    static func visualConsentPage(_ page: Int, document: ConsentDocument?, into context: inout [String: Any], parts: PageParts) -> String {
        let sections = document?.visualSections ?? []
        guard sections.indices.contains(page) else { return "" }
        let section = sections[page]
        if let heading = context["heading"] { context["caption"] = heading }
        let title = sectionTitle(section, parts: parts)
        context["heading"] = title
        context["text"] = parts.html(section.summary)
        if let content = parts.html(section.content) {
            let learnTitle = parts.html(section.learnMoreTitle) ?? HTMLEscaping.escape(parts.catalog["learnMore"])
            context["learnMore"] = section.summary == nil ? nil : ["title": learnTitle, "text": content]
            if section.summary == nil { context["text"] = content }
        }
        return PlainText.from(title)
    }

    /// The sharing step: one required yes-or-no question, its choices worded with the investigator's names.
    static func sharingQuestion(_ content: ConsentSharingContent, step: Step, parts: PageParts) -> [String: Any] {
        let short = parts.plain(content.investigatorShortDescription) ?? ""
        let long = parts.plain(content.investigatorLongDescription) ?? ""
        let catalog = parts.catalog
        let format = BooleanFormat(yes: LocalizedText(catalog["consentShareBroadly"].replacingOccurrences(of: "%@", with: short)),
                                   no: LocalizedText(catalog["consentShareStudyOnly"].replacingOccurrences(of: "%@", with: short)))
        let label = parts.texts.html(step.title, language: parts.language, fallback: parts.fallback)
            ?? SanitizedHTML(trustedHTML: HTMLEscaping.escape(catalog["consentSharingTitle"]))
        let detail = SanitizedHTML(trustedHTML: HTMLEscaping.escape(catalog["consentSharingText"].replacingOccurrences(of: "%@", with: long)))
        return parts.question(name: step.identifier, format: .boolean(format), label: label, detail: detail, placeholder: nil,
                              isOptional: false, isHeading: true).context()
    }

    /// The review's signing page: the whole document, the reason for consent, the typed names,
    /// the drawing pad the script fills in, and Agree or Disagree.
    static func signingPage(_ content: ConsentReviewContent, document: ConsentDocument?, into context: inout [String: Any], parts: PageParts) -> ([String], String) {
        guard let document else { return ([], "") }
        let catalog = parts.catalog
        let fields = ConsentReviewContent.Field.self
        if context["heading"] == nil { context["heading"] = parts.html(document.title) }
        context["caption"] = HTMLEscaping.escape(catalog["consentVersion"].replacingOccurrences(of: "%@", with: document.version))
        if let review = parts.html(document.reviewText) {
            context["reviewText"] = review
        } else {
            context["sections"] = document.sections.map { section -> [String: Any] in
                ["title": sectionTitle(section, parts: parts), "content": parts.html(section.content) ?? parts.html(section.summary) ?? ""]
            }
        }
        context["reason"] = parts.html(content.reasonForConsent) ?? HTMLEscaping.escape(catalog["consentReason"])
        let signature = document.signature(content.signature)
        context["signatureHeading"] = parts.html(signature?.title) ?? HTMLEscaping.escape(catalog["consentSignatureHeading"])
        let name = AnswerFormat.text(TextFormat(maximumLength: 100))
        for (key, field, label) in [("givenName", fields.givenName, "consentGivenName"), ("familyName", fields.familyName, "consentFamilyName")] {
            var model = parts.question(name: field, format: name, label: SanitizedHTML(trustedHTML: HTMLEscaping.escape(catalog[label])),
                                       detail: nil, placeholder: nil, isOptional: false, isHeading: false).context()
            if var input = model["input"] as? [String: Any] {
                input["autocomplete"] = key == "givenName" ? "given-name" : "family-name"
                input["spellcheck"] = "false"
                model["input"] = input
            }
            context[key] = model
        }
        let slots = parts.slots
        context["drawing"] = [
            "name": fields.drawing, "value": slots.marker(.value(fields.drawing)), "error": slots.marker(.error(question: fields.drawing)),
            "groupError": slots.marker(.groupError(question: fields.drawing)),
            "label": catalog["consentDrawLabel"], "clear": catalog["consentDrawClear"],
        ]
        context["consented"] = fields.consented
        context["meaning"] = catalog["consentSignatureMeaning"]
        context["agree"] = catalog["consentAgree"]
        context["disagree"] = catalog["consentDisagree"]
        return ([fields.consented, fields.givenName, fields.familyName, fields.drawing], PlainText.from(context["heading"] as? String ?? ""))
    }
}

extension SurveyPages {
    /// The certification page: a read-only copy of what the participant consented to and
    /// entered, with "I certify that this is correct" and Back to correct it.
    func renderCertification(run: TaskRun, visit index: Int, language: String, csrfToken: String, context: AnswerContext,
                             presentation: Presentation, panel: String) -> String? {
        guard let document = task.consentDocument, let consent = navigator.consent(in: runThrough(run, index)) else { return nil }
        let catalog = Catalog(language: language)
        let texts = place(for: presentation).texts
        func row(_ key: String, _ value: String) -> [String: Any] { ["label": catalog[key], "answer": value] }
        var rows = [
            ["label": texts.plain(document.title, language: language, fallback: languages) ?? "",
             "answer": catalog["consentVersion"].replacingOccurrences(of: "%@", with: document.version)],
            row("consentDecision", catalog["consentAgreed"]),
        ]
        if let broadly = consent.sharesBroadly, let sharing = task.steps.first(where: { if case .consentSharing = $0.kind { true } else { false } }),
           case .consentSharing(let content) = sharing.kind {
            let short = texts.plain(content.investigatorShortDescription, language: language, fallback: languages) ?? ""
            rows.append(row("consentSharingChoice", catalog[broadly ? "consentShareBroadly" : "consentShareStudyOnly"]
                .replacingOccurrences(of: "%@", with: short)))
        }
        rows.append(row("consentName", [consent.givenName, consent.familyName].compactMap { $0 }.joined(separator: " ")))
        if let signed = consent.signedAt { rows.append(row("consentSignedAt", catalog.moment(signed, context.timeZone))) }
        var stepContext: [String: Any] = [
            "identifier": run.visits[index].stepIdentifier, "is_certification": true, "rows": rows, "page": ConsentReviewContent.certificationPage,
            "csrf": HTMLEscaping.escape(csrfToken), "visit": String(index), "returnFlag": "", "headingFocus": " autofocus=\"autofocus\"",
            "heading": HTMLEscaping.escape(catalog["consentCertifyTitle"]), "intro": catalog["consentCertifyIntro"],
            "certify": catalog["consentCertify"], "certified": ConsentReviewContent.Field.certified,
            "drawnLabel": catalog["consentDrawn"],
        ]
        if case .success(let drawing?) = SignatureDrawing.read(consent.drawing) { stepContext["drawing"] = drawing.pathData }
        var page = Self.pageContext(task: task, language: language, texts: texts, fallback: languages, title: catalog["consentCertifyTitle"],
                                    presentation: presentation)
        page["refresh"] = place(for: presentation).refresh(navigator.step(of: run.visits[index])!, base: presentation.base(task.identifier))
        Self.switchingByPost(&page)
        page["isStep"] = true
        page["step"] = stepContext
        page["titlePrefix"] = ""
        page["errorSummary"] = ""
        page["backStart"] = ""
        page["backEnd"] = ""
        page["panel"] = panel
        return library.render(page, withTemplate: "page")
    }

    /// The run as it stood at visit `index`, so the copy shows that visit's answers.
    private func runThrough(_ run: TaskRun, _ index: Int) -> TaskRun {
        var through = run
        through.cursor = index
        return through
    }

    /// True when the page shown for the run's visit takes the drawing pad's script.
    public func drawsSignature(run: TaskRun, visit index: Int) -> Bool {
        guard run.visits.indices.contains(index), let step = navigator.step(of: run.visits[index]) else { return false }
        return step.isConsentReview && run.visits[index].page == ConsentReviewContent.signingPage && !run.isFinished
    }
}
