import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering
import SurveyStorage

/// Saving for later and resuming: the saved page, the resume code form, and the single-use
/// resume and start links, which a GET only shows and a POST claims, so that a mail scanner
/// or link preview that opens a link does not spend it.
struct SaveResumeController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let limits: ParticipantLimits

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/surveys/:survey/saved") { request, context in try await saved(request, context) }
        router.get("/resume") { request, context in try await resumeForm(request, context) }
        router.post("/resume") { request, context in try await resumeWithCode(request, context) }
        router.get("/resume/:token") { request, context in try await claimPage(request, context, starting: false) }
        router.post("/resume/:token") { request, context in try await claim(request, context, starting: false) }
        router.get("/start/:token") { request, context in try await claimPage(request, context, starting: true) }
        router.post("/start/:token") { request, context in try await claim(request, context, starting: true) }
    }

    /// After "Save for later": the resume link and code, and when they expire.
    func saved(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let ticket = try await runs.savedTicket(pages.survey, session: visitor.session), let code = ticket.code else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        let zone = runs.timeZone(of: pages.survey)
        let words = Catalog(language: visitor.language)
        let expires = words.day(CalendarDate(ticket.expiresAt, in: zone))
        let body = pages.renderPage("saved", language: visitor.language, title: words["savedTitle"], values: [
            "resumeCode": String(code.prefix(4)) + " " + String(code.suffix(4)),
            "resumeLink": configuration.absoluteURL("/resume/\(ticket.token)", for: request, context),
            "savedExpiresText": words["savedExpires"].replacingOccurrences(of: "%@", with: expires),
        ])
        return html(body, visitor: visitor)
    }

    private func anyPages() throws -> SurveyPages {
        guard let pages = catalog.surveys.values.sorted(by: { $0.task.identifier < $1.task.identifier }).first else {
            throw HTTPError(.notFound)
        }
        return pages
    }

    /// The form where a participant types the code they were given when they saved.
    func resumeForm(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try anyPages()
        let visitor = visitor(request, context, pages: nil)
        return html(resumePage(pages, visitor: visitor, typed: "", errorKey: nil), visitor: visitor)
    }

    private func resumePage(_ pages: SurveyPages, visitor: Visitor, typed: String, errorKey: String?) -> String {
        let words = Catalog(language: visitor.language)
        var values: [String: Any] = [
            "csrf": signer.pageToken(session: visitor.session, shownAt: clock()), "typed": typed, "surveyTitle": words["resumeTitle"],
        ]
        var issues: [AnswerIssue] = []
        if let errorKey {
            values["resumeError"] = words[errorKey]
            issues = [AnswerIssue(field: "code", code: .notAChoice, problem: .catalogEntry(errorKey))]
        }
        return pages.renderPage("resume", language: visitor.language, title: words["resumeTitle"], values: values, issues: issues)
    }

    /// The post of a form on a page that belongs to no run (the resume form, a link's Continue
    /// page), with its token checked.
    private func pageForm(_ request: Request, _ context: SurveyRequestContext) async throws
        -> (pages: SurveyPages, visitor: Visitor, fields: FormFields, now: Date) {
        let pages = try anyPages()
        let visitor = visitor(request, context, pages: nil)
        let fields = try await formFields(request)
        let now = clock()
        guard !visitor.isNew, signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil else {
            throw PageError(.forbidden, "formExpired")
        }
        return (pages, visitor, fields, now)
    }

    /// A typed code. Codes can be guessed, so a client past its limit, or a code whose first
    /// half has been tried too often from anywhere, is refused before the look-up; a place is
    /// taken for each try at once (so a burst in parallel gets no more tries), and given back
    /// when the code was right.
    func resumeWithCode(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let (pages, visitor, fields, now) = try await pageForm(request, context)
        let typed = fields["code"] ?? ""
        func refuse(_ key: String, _ status: HTTPResponse.Status) -> Response {
            html(resumePage(pages, visitor: visitor, typed: typed, errorKey: key), status: status, visitor: nil)
        }
        let client = clientKey(request, context)
        guard let clientSlot = await limits.resumeByClient.reserve(client, now: now) else { return refuse("resumeTooMany", .tooManyRequests) }
        guard let code = ResumeTicket.normalize(typed) else { return refuse("resumeCodeMalformed", .unprocessableContent) }
        let half = String(code.prefix(4))
        guard let codeSlot = await limits.resumeByCode.reserve(half, now: now) else { return refuse("resumeTooMany", .tooManyRequests) }
        guard let record = try await runs.savedRun(code: code) else { return refuse("resumeCodeUnknown", .unprocessableContent) }
        await limits.resumeByClient.release(client, reservedAt: clientSlot)
        await limits.resumeByCode.release(half, reservedAt: codeSlot)
        return try await resume(record, visitor: visitor, now: now) { refuse("resumeCodeExpired", .unprocessableContent) }
    }

    /// A resume or start link: a page with a Continue button. Nothing is looked up, spent or
    /// counted until the button is pressed.
    func claimPage(_ request: Request, _ context: SurveyRequestContext, starting: Bool) async throws -> Response {
        let pages = try anyPages()
        let visitor = visitor(request, context, pages: nil)
        guard let token = context.parameters.get("token"), token.utf8.count <= 64 else { throw HTTPError(.notFound) }
        let words = Catalog(language: visitor.language)
        let title = words[starting ? "claimStartTitle" : "claimResumeTitle"]
        let body = pages.renderPage("claim", language: visitor.language, title: title, values: [
            "surveyTitle": title, "claimTitle": title, "claimText": words[starting ? "claimStartText" : "claimResumeText"],
            "claimAction": (starting ? "/start/" : "/resume/") + token,
            "csrf": signer.pageToken(session: visitor.session, shownAt: clock()),
        ])
        return html(body, visitor: visitor)
    }

    /// The Continue button of a link's page. Link tokens are too long to guess, so the token is
    /// looked up first and a valid one works even for a client past its limit; only failures count.
    func claim(_ request: Request, _ context: SurveyRequestContext, starting: Bool) async throws -> Response {
        let (pages, visitor, _, now) = try await pageForm(request, context)
        if let token = context.parameters.get("token"), let record = try await runs.savedRun(token: token) {
            return try await resume(record, visitor: visitor, now: now) {
                errorPage(pages, status: .gone, titleKey: "notFoundTitle", textKey: "claimExpired", visitor: visitor)
            }
        }
        guard await limits.resumeByClient.reserve(clientKey(request, context), now: now) != nil else {
            return errorPage(pages, status: .tooManyRequests, titleKey: "notFoundTitle", textKey: "claimTooMany", visitor: visitor)
        }
        return errorPage(pages, status: .notFound, titleKey: "notFoundTitle", textKey: "claimUnknown", visitor: visitor)
    }

    /// Binds a saved (or API-made) run to this browser and shows it where it stopped; the code
    /// and link then stop working.
    private func resume(_ record: RunRecord, visitor: Visitor, now: Date, onExpired: () -> Response) async throws -> Response {
        guard try await runs.resume(record, session: visitor.session, now: now) else { return onExpired() }
        return redirect("/surveys/\(record.surveyIdentifier)", visitor: visitor)
    }
}
