import Foundation
import SurveyCore

/// After a consent is certified: the end page with its copy and withdrawal, and on a kiosk the
/// staff's countersignature form.
extension SurveyPages {
    /// What a finished consent offers at the end: its copy (a download on the participant's own
    /// device; on a kiosk, a code to fetch it elsewhere) and the way to withdraw later.
    public struct ConsentEnd: Sendable {
        public var code: String
        public var codeExpires: Date
        /// Absolute addresses: the withdrawal link, and the pages that take the code.
        public var withdrawLink: String
        public var withdrawPage: String
        public var copyPage: String
        public var copyMinutes: Int
        public init(code: String, codeExpires: Date, withdrawLink: String, withdrawPage: String, copyPage: String, copyMinutes: Int) {
            self.code = code
            self.codeExpires = codeExpires
            self.withdrawLink = withdrawLink
            self.withdrawPage = withdrawPage
            self.copyPage = copyPage
            self.copyMinutes = copyMinutes
        }
    }

    /// A kiosk's countersignature form: where it posts, and the run it countersigns with its token.
    public struct Countersign: Sendable {
        public var action: String
        public var run: String
        public var token: String
        public init(action: String, run: String, token: String) {
            self.action = action
            self.run = run
            self.token = token
        }
    }

    /// The form where a member of staff types their name and the kiosk PIN to countersign.
    public func renderCountersign(_ form: Countersign, language: String, typedName: String, errorKey: String?) -> String {
        let catalog = Catalog(language: language)
        var values: [String: Any] = [
            "action": form.action, "run": form.run, "csrf": form.token, "typed": typedName, "switcher": false,
            "title": catalog["consentCountersignature"], "intro": catalog["consentCountersignIntro"],
            "nameLabel": catalog["consentCountersignName"], "button": catalog["consentCountersign"],
        ]
        var issues: [AnswerIssue] = []
        if let errorKey {
            let field = errorKey == "consentCountersignNameMissing" ? "name" : "pin"
            values[field + "Error"] = catalog[errorKey]
            issues = [AnswerIssue(field: field, code: .notAChoice, problem: .catalogEntry(errorKey))]
        }
        return renderPage("consentCountersign", language: language, title: catalog["consentCountersignature"], values: values,
                          issues: issues, presentation: .kiosk)
    }

    /// The end page of a run whose consent was certified: the completion step's words when it
    /// ended on one, then the copy and withdrawal; on a kiosk, staff's countersignature when due.
    public func renderConsentDone(run: TaskRun, end: ConsentEnd, language: String, timeZone: TimeZone,
                                  presentation: Presentation, countersign: Countersign? = nil) -> String {
        let catalog = Catalog(language: language)
        let texts = place(for: presentation).texts
        let completion = run.visits.last.flatMap { navigator.step(of: $0) }.flatMap { $0.isCompletion ? $0 : nil }
        let spaced = String(end.code.prefix(4)) + " " + String(end.code.suffix(4))
        let until = catalog.day(CalendarDate(end.codeExpires, in: timeZone))
        var values: [String: Any] = [
            "heading": texts.html(completion?.title, language: language, fallback: languages)?.html
                ?? HTMLEscaping.escape(catalog["consentDoneTitle"]),
            "copyURL": presentation.base(task.identifier) + "/consent.pdf", "code": spaced, "copyLabel": catalog["consentCopy"],
            "withdrawTitle": catalog["consentWithdrawTitle"], "withdrawLink": end.withdrawLink,
            "copyText": catalog["consentCopyKiosk"].replacingOccurrences(of: "%1$@", with: end.copyPage)
                .replacingOccurrences(of: "%2$@", with: String(end.copyMinutes)),
            "withdrawText": catalog[presentation == .kiosk ? "consentWithdrawLaterKiosk" : "consentWithdrawLater"]
                .replacingOccurrences(of: "%1$@", with: until).replacingOccurrences(of: "%2$@", with: end.withdrawPage),
        ]
        if let text = texts.html(completion?.text, language: language, fallback: languages) { values["text"] = text.html }
        if let countersign {
            values["countersign"] = ["action": countersign.action, "run": countersign.run, "csrf": countersign.token,
                                     "title": catalog["consentCountersignature"], "intro": catalog["consentCountersignIntro"],
                                     "button": catalog["consentCountersign"]]
        }
        if task.showAnswersOnCompletion == true, presentation == .web { values["answersURL"] = presentation.base(task.identifier) + "/answers" }
        for (key, value) in kioskEndValues(language: language) where presentation == .kiosk { values[key] = value }
        return renderPage("consentDone", language: language, title: catalog["consentDoneTitle"], values: values, presentation: presentation)
    }
}
