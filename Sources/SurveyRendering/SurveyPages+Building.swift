import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// Building: every page of the survey rendered once, with its per-request parts left as slots.
extension SurveyPages {
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

    static func sampleFill(for page: CompiledPage, library: MustacheLibrary, language: String) -> PageFill {
        let issues = page.questions.map { AnswerIssue(field: $0, code: .required, problem: .missing(.text)) }
        var fill = PageFill(csrfToken: "sample-token", visit: 1, issues: issues, canGoBack: true, returnToReview: true,
                            questionOfField: { $0 })
        fill.errorSummary = errorSummary(issues, library: library, language: language)
        fill.errorMessages = errorMessages(issues, questionOf: { $0 }, library: library, language: language)
        return fill
    }
}
