import Foundation
import Mustache
import SurveyCore

/// The preview's own words. The preview is the researcher's tool and speaks English; its
/// words live here, in one table, as the participant's live in the catalogs.
public enum PreviewChrome {
    static let words: [String: String] = [
        "preview": "Preview", "surveys": "Surveys in this preview", "map": "Map of the survey", "dashboard": "Dashboard: how the study is going",
        "errors": "Errors", "warnings": "Warnings", "noProblems": "No errors or warnings.",
        "removedMarkup": "Removed from the survey's text", "cannotOpen": "This survey cannot be previewed until its errors are fixed.",
        "steps": "Steps", "rules": "Rules", "unreachable": "unreachable", "onlyIf": "only if", "forExample": "for example if",
        "preview-step": "Preview this step", "whyUnreachable": "Why no answers reach this step", "answersAssumed": "Answers so far", "change": "Change",
        "resultSoFar": "Result so far, as exported (JSON)",
        "diagramCaption": "Every step and every move between them; a box opens the step's preview. The list below says the same in words.", "whyShown": "Why this step is shown", "skippedBefore": "Skipped on the way",
        "noAnswersYet": "No answers yet: this is the first step.", "backToMap": "Back to the map", "first": "It is the first step.",
        "cannotReach": "No answers reach this step", "signInTitle": "Sign in to the preview", "tokenLabel": "Preview token",
        "signInButton": "Sign in", "tokenWrong": "The token is not right", "tokenTooMany": "Too many wrong tokens. Wait a minute, then try again",
        "finishedTitle": "The preview run has ended", "finishedText": "Nothing of a preview run is kept.",
        "templateProblem": "The templates cannot be used", "noSurveys": "No survey files were found.",
        "file": "File", "question": "Question", "format": "Answer", "type": "Type",
        // Why a step is shown, or cannot be.
        "whyNext": "After %1$@, it goes on in order to %2$@.", "whyAlways": "After %1$@, a rule always leads to %2$@.",
        "whyRule": "After %1$@, the rule “if %2$@ → %3$@” held, with %4$@.",
        "whyOtherwise": "After %1$@, none of its rules held, so it went on to %2$@.", "skippedLine": "%1$@: %2$@.",
        "noPath": "No rule or order of steps leads here, whatever the answers.",
        "conditionsNeverHold": "Every path here needs answers that cannot all be given: %1$@.", "conditionsJoin": "; and ",
        "alwaysSkipped": "Every path that arrives here makes its skip rule hold (%1$@), so it is always skipped.",
        "conditionThen": ", then ", "answerIs": "%1$@ = %2$@", "notOnPath": "%1$@ not on the path", "noAnswer": "no answer",
        // When the search for paths runs out of its time or work.
        "mapStopped": "The map stopped after checking the paths of %1$@ of %2$@ steps (a map may take at most %3$@ seconds). The steps from %4$@ on were not checked: they show no condition and are not marked unreachable, even where no answers reach them. Open one of them to look for answers that lead to it alone.",
        "notChecked": "paths not checked",
        "searchStoppedTitle": "The search for answers stopped",
        "searchStopped": "The search stopped before it found answers that lead to this step or showed that none can (it may take at most %1$@ seconds). The survey is too large for the preview to say whether this step can be reached.",
        // The local preview refuses a request for another host name.
        "wrongHostTitle": "Wrong host name",
        "wrongHostText": "This preview answers only to localhost, 127.0.0.1 and [::1]. Open it at http://127.0.0.1 with its port.",
    ]

    /// A preview sentence with its `%1$@`, `%2$@`… filled.
    public static func sentence(_ key: String, _ values: String...) -> String {
        Catalog.fill(template: self[key], values)
    }

    /// A preview word by key (the key itself when missing, so a gap shows).
    public static subscript(key: String) -> String { words[key] ?? key }

    /// A page of the preview that belongs to no one survey (the list, the sign-in form), from
    /// the `page` layout with the named content flag set.
    public static func renderPage(_ kind: String, title: String, values: [String: Any], library: MustacheLibrary) -> String {
        var context: [String: Any] = [
            "lang": "en", "dir": "ltr", "title": title, "surveyTitle": words["preview"]!, "preview": true,
            "words": Catalog(language: "en").wordsContext, "pw": words, "is_" + kind: true, "titlePrefix": "", "errorSummary": "",
            "backStart": "<!--", "backEnd": "-->", "panel": "",
        ]
        for (key, value) in values { context[key] = value }
        return library.render(context, withTemplate: "page") ?? ""
    }

    /// A page made without the templates, for when they cannot be read.
    public static func plainPage(_ title: String, text: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\" /><title>" + HTMLEscaping.escape(title)
            + "</title><link rel=\"stylesheet\" href=\"/survey.css\" /></head><body><main id=\"main\" class=\"main\"><h1 class=\"heading-l\">"
            + HTMLEscaping.escape(title) + "</h1><p class=\"body\">" + HTMLEscaping.escape(text) + "</p></main></body></html>"
    }
}
