import Foundation
import Hummingbird
import SurveyAnalysis
import SurveyCore
import SurveyRendering
import SurveyStorage

/// Taking a survey: the list, a step, an answer, Back, Skip, Change, and Cancel. The kiosk's
/// controller hands its participants' steps to the same handlers, with a kiosk visitor.
struct SurveyTakingController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    /// Markup beside a step, made per request (the preview's panel); nil for participants.
    var panel: (@Sendable (SurveyPages, TaskRun, Int) -> String)?

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/") { request, _ in try await index(request) }
        router.get("/surveys/:survey") { request, context in
            let pages = try survey(context)
            return try await show(pages, visitor: visitor(request, context, pages: pages), query: Self.queryItems(request.uri.query))
        }
        router.post("/surveys/:survey") { request, context in
            let pages = try survey(context)
            return try await submit(pages, visitor: visitor(request, context, pages: pages), request, context)
        }
        router.get("/surveys/:survey/change/:visit") { request, context in
            let pages = try survey(context)
            return try await change(pages, visitor: visitor(request, context, pages: pages), context)
        }
        router.get("/surveys/:survey/cancel") { request, context in
            let pages = try survey(context)
            return try await cancelPage(pages, visitor: visitor(request, context, pages: pages))
        }
        router.get("/surveys/:survey/discarded") { request, context in try await discarded(request, context) }
    }

    /// The list of surveys, in the language the browser asks for.
    func index(_ request: Request) async throws -> Response {
        guard let first = catalog.surveys.values.first else { throw HTTPError(.notFound) }
        let wanted = Self.wantedLanguages(request)
        let language = ErrorPage.language(of: request)
        let words = Catalog(language: language)
        let surveys = catalog.surveys.values.sorted { $0.task.identifier < $1.task.identifier }.map { pages -> [String: Any] in
            let title = pages.texts.plain(pages.task.title, language: pages.language(preferring: wanted), fallback: pages.languages)
            return ["identifier": pages.task.identifier, "title": title ?? pages.task.identifier]
        }
        let body = first.renderPage("index", language: language, title: words["surveys"],
                                    values: ["surveys": surveys, "surveyTitle": words["surveys"], "switcher": false])
        return html(body, visitor: nil)
    }

    /// The session's run of the survey where it stands; with no run, the survey's first page,
    /// carrying the parameters its address brought (a link missing a required one, or with one
    /// malformed, too long or repeated, gets a page that says so, and no run).
    func show(_ pages: SurveyPages, visitor: Visitor, query: [(name: String, value: String)] = []) async throws -> Response {
        let answerContext = answerContext(pages, language: visitor.language)
        let body: String?
        var script = false
        let parameters = pages.task.parameterValues(from: query)
        let session = visitor.session
        // The preview has no panel behind it: its runs take example values, so piped text shows something.
        let given = visitor.presentation == .preview ? pages.task.exampleParameters : (try? parameters.get()) ?? [:]
        let position = try await runs.show(pages.survey, session: visitor.isNew ? nil : visitor.session, parameters: given,
                                           runID: { signer.runID(session: session, shownAt: $0) })
        if case .notStarted = position, visitor.presentation == .web, case .failure(let error) = parameters {
            return parameterPage(pages, error, visitor: visitor)
        }
        switch position {
        case .inProgress(let record):
            script = pages.drawsSignature(run: record.run, visit: record.run.cursor)
            body = pages.renderStep(run: record.run, visit: record.run.cursor, language: visitor.language,
                                    csrfToken: signer.csrfToken(session: visitor.session, run: record.id), context: answerContext,
                                    presentation: visitor.presentation, panel: panel?(pages, record.run, record.run.cursor) ?? "")
        case .notStarted(let run, let shownAt):
            // The first step that shows something: steps before it that show nothing are passed over.
            body = pages.renderStep(run: run, visit: run.cursor, language: visitor.language,
                                    csrfToken: signer.startToken(session: visitor.session, shownAt: shownAt, parameters: run.parameters ?? [:]),
                                    context: answerContext,
                                    presentation: visitor.presentation, panel: panel?(pages, run, run.cursor) ?? "")
        }
        guard let body else { throw HTTPError(.internalServerError) }
        return html(body, visitor: visitor, script: script)
    }

    func change(_ pages: SurveyPages, visitor: Visitor, _ context: SurveyRequestContext) async throws -> Response {
        let index = context.parameters.get("visit", as: Int.self)
        guard !visitor.isNew, let index, let record = try await runs.runToChange(pages.survey, session: visitor.session, visit: index),
              let body = pages.renderStep(run: record.run, visit: index, language: visitor.language,
                                          csrfToken: signer.csrfToken(session: visitor.session, run: record.id), returnToReview: true,
                                          context: answerContext(pages, language: visitor.language),
                                          presentation: visitor.presentation, panel: panel?(pages, record.run, index) ?? "") else {
            return redirect(visitor.base(pages), visitor: visitor)
        }
        return html(body, visitor: visitor, script: pages.drawsSignature(run: record.run, visit: index))
    }

    func submit(_ pages: SurveyPages, visitor: Visitor, _ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let base = visitor.base(pages)
        // A kiosk's turn is renewed by every request; a browser's session cookie only when due.
        let renewing = visitor.kioskRun == nil ? nil : visitor
        let fields = try await formFields(request)
        let expired = PageError(.forbidden, "formExpired")
        guard !visitor.isNew else { throw expired }
        let now = clock()
        let target: RunService.Target
        var shownAt: Date?
        var startParameters: [String: String] = [:]
        if let active = try await runs.activeRun(pages.survey, session: visitor.session) {
            guard signer.checkCSRF(fields["_csrf"], session: visitor.session, run: active.id) else {
                // A first page posted from another tab after this one started the run: show where it stands.
                if signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil { return redirect(base, visitor: renewing) }
                throw expired
            }
            target = .stored(active)
        } else {
            guard let (firstShown, parameters) = signer.checkStartToken(fields["_csrf"], session: visitor.session, now: now) else {
                if try await runs.finishedRun(pages.survey, session: visitor.session) != nil { return redirect(base + "/done", visitor: renewing) }
                throw expired
            }
            // The first answer starts the run, with an identifier derived from the session and when its first page was shown.
            target = .starting(id: signer.runID(session: visitor.session, shownAt: firstShown), session: visitor.session,
                               shownAt: firstShown, client: clientKey(request, context), parameters: parameters)
            shownAt = firstShown
            startParameters = parameters
        }
        let post = runs.post(to: target, of: pages.survey, visit: fields["_visit"].flatMap(Int.init), page: fields["_page"].flatMap(Int.init),
                             instance: fields["_instance"].flatMap(Int.init), now: now, via: visitor.presentation)
        let token = shownAt.map { signer.startToken(session: visitor.session, shownAt: $0, parameters: startParameters) }
            ?? signer.csrfToken(session: visitor.session, run: post.record.id)
        if let wanted = fields["_lang"] {
            // The language switcher: the same page in the chosen language, with what was typed
            // on it kept and nothing checked or stored; the choice is remembered for the run.
            var switched = visitor
            switched.language = pages.language(preferring: [wanted])
            switched.rememberLanguage = true
            guard let body = pages.renderStep(run: post.record.run, visit: post.visit, language: switched.language, csrfToken: token,
                                              submitted: fields, returnToReview: fields["_return"] == "1",
                                              context: answerContext(pages, language: switched.language),
                                              presentation: visitor.presentation,
                                              panel: panel?(pages, post.record.run, post.visit) ?? "") else {
                throw HTTPError(.internalServerError)
            }
            return html(body, visitor: switched, script: pages.drawsSignature(run: post.record.run, visit: post.visit))
        }
        let outcome: RunService.Outcome
        let action = fields["_action"] ?? "next"
        switch action {
        case "back": outcome = try await runs.back(post)
        case "skip": outcome = try await runs.skip(post)
        case "decline": outcome = try await runs.decline(post)
        case "save": outcome = try await runs.save(post)
        case "cancel": return redirect(base + "/cancel", visitor: renewing)
        case "discard":
            try await runs.cancel(post)
            return redirect(base + "/discarded", visitor: renewing)
        default:
            let returning = fields["_return"] == "1"
            if let repeatAction = RepeatAction(field: action) {
                outcome = try await runs.act(repeatAction, post, fields: fields, language: visitor.language, returning: returning)
            } else {
                outcome = try await runs.answer(post, fields: fields, language: visitor.language, returning: returning)
            }
            if case .rejected(let issues, let answerContext) = outcome {
                guard let body = pages.renderStep(run: post.record.run, visit: post.visit, language: visitor.language, csrfToken: token,
                                                  submitted: fields, issues: issues, returnToReview: returning, context: answerContext,
                                                  presentation: visitor.presentation,
                                                  panel: panel?(pages, post.record.run, post.visit) ?? "") else {
                    throw HTTPError(.internalServerError)
                }
                return html(body, status: .unprocessableContent, visitor: visitor.kioskRun == nil ? nil : visitor,
                            script: pages.drawsSignature(run: post.record.run, visit: post.visit))
            }
        }
        switch outcome {
        case .stored(let record):
            if record.savedAt != nil { return redirect(base + "/saved", visitor: renewing) }
            // A run made through the API sends the participant back where the researcher asked,
            // through a page of ours: a redirect after a form post would break the CSP's form-action.
            if runs.panelAddress(of: record, in: pages.survey) != nil { return redirect(base + "/return", visitor: renewing) }
            return redirect(record.run.isFinished ? base + "/done" : base, visitor: renewing)
        case .unchanged, .rejected:
            return redirect(base, visitor: renewing)
        case .tooManyRuns:
            return errorPage(pages, status: .tooManyRequests, titleKey: "tooManyRuns", textKey: "tooManyRuns", visitor: visitor)
        case .notSaved:
            // The same page, what was sent kept in it, and a word to send it again in a moment.
            guard let body = pages.renderStep(run: post.record.run, visit: post.visit, language: visitor.language, csrfToken: token,
                                              submitted: fields, returnToReview: fields["_return"] == "1",
                                              context: answerContext(pages, language: visitor.language), presentation: visitor.presentation,
                                              panel: panel?(pages, post.record.run, post.visit) ?? "", notice: "notSaved") else {
                throw HTTPError(.internalServerError)
            }
            var response = html(body, status: .serviceUnavailable, visitor: visitor.kioskRun == nil ? nil : visitor,
                                script: pages.drawsSignature(run: post.record.run, visit: post.visit))
            response.headers[.retryAfter] = StoreFailure.retryAfterSeconds
            return response
        }
    }

    func cancelPage(_ pages: SurveyPages, visitor: Visitor) async throws -> Response {
        guard !visitor.isNew else { return redirect(visitor.base(pages), visitor: visitor) }
        let record = try await runs.activeRun(pages.survey, session: visitor.session)
        let token = record.map { signer.csrfToken(session: visitor.session, run: $0.id) }
            ?? signer.pageToken(session: visitor.session, shownAt: clock())
        var values = pages.kioskIdleValues(visitor.presentation)
        values["csrf"] = token
        values["visit"] = String(record?.run.cursor ?? 0)
        let body = pages.renderPage("cancel", language: visitor.language, title: Catalog(language: visitor.language)["cancelTitle"],
                                    values: values, presentation: visitor.presentation)
        return html(body, visitor: visitor)
    }

    func discarded(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        let body = pages.renderPage("discarded", language: visitor.language, title: Catalog(language: visitor.language)["discardedTitle"])
        return html(body, visitor: visitor)
    }

    /// A link's query as names and values, decoded as a form is (`+` is a space), as panels write them.
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            // Broken escapes stay as they were sent: a parameter's pattern refuses them.
            return spaced.removingPercentEncoding ?? spaced
        }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The page for a link whose parameters the survey cannot take, naming the one at fault.
    func parameterPage(_ pages: SurveyPages, _ error: ParameterError, visitor: Visitor) -> Response {
        let words = Catalog(language: visitor.language)
        let key: String
        switch error.fault {
        case .missing: key = "parameterMissing"
        case .repeated: key = "parameterRepeated"
        case .tooLong: key = "parameterTooLong"
        case .malformed: key = "parameterMalformed"
        }
        let body = pages.renderPage("message", language: visitor.language, title: words["parameterTitle"],
                                    values: ["heading": words["parameterTitle"], "text": words[key].replacingOccurrences(of: "%@", with: error.name)],
                                    presentation: visitor.presentation)
        return html(body, status: .badRequest, visitor: visitor)
    }
}
