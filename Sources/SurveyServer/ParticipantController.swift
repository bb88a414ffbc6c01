import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The participant's side: start or resume a run, show its step, take answers, Back, Skip,
/// save, cancel, and the result of a finished run. Post/Redirect/Get throughout.
struct ParticipantController: Sendable {
    let catalog: SurveyCatalog
    let store: any RunStore
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let resumeAttempts: AttemptLimiter
    let metrics: ServerMetrics

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/") { request, _ in try await index(request) }
        router.get("/surveys/:survey") { request, context in try await show(request, context) }
        router.post("/surveys/:survey") { request, context in try await submit(request, context) }
        router.get("/surveys/:survey/change/:visit") { request, context in try await change(request, context) }
        router.get("/surveys/:survey/cancel") { request, context in try await cancelPage(request, context) }
        router.get("/surveys/:survey/done") { request, context in try await done(request, context) }
        router.get("/surveys/:survey/saved") { request, context in try await saved(request, context) }
        router.get("/surveys/:survey/discarded") { request, context in
            try await message(request, context, kind: "discarded", titleKey: "discardedTitle")
        }
        router.get("/surveys/:survey/result.json") { request, context in try await result(request, context) }
        router.get("/surveys/:survey/answers") { request, context in try await answers(request, context) }
        router.get("/resume") { request, context in try await resumeForm(request, context) }
        router.post("/resume") { request, context in try await resumeWithCode(request, context) }
        router.get("/resume/:token") { request, context in try await resumeWithLink(request, context) }
        router.get("/start/:token") { request, context in try await resumeWithLink(request, context) }
    }

    // MARK: Helpers

    struct Visitor {
        let session: String
        let isNew: Bool
        let language: String
        let secure: Bool
    }

    private func survey(_ context: SurveyRequestContext) throws -> SurveyPages {
        guard let identifier = context.parameters.get("survey"), let pages = catalog.surveys[identifier] else {
            throw HTTPError(.notFound, message: "There is no survey at this address.")
        }
        return pages
    }

    private func visitor(_ request: Request, pages: SurveyPages?) -> Visitor {
        let secure = configuration.isSecure(request)
        var wanted: [String] = []
        if let explicit = request.uri.queryParameters.get("lang") { wanted.append(explicit) }
        if let header = request.headers[.acceptLanguage] {
            let entries = header.split(separator: ",").map { entry -> (String, Double) in
                let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return (parts.first ?? "", quality)
            }
            wanted += entries.filter { !$0.0.isEmpty && $0.0 != "*" }.sorted { $0.1 > $1.1 }.map(\.0)
        }
        let language = pages?.language(preferring: wanted) ?? "en"
        if let cookie = Self.sessionCookie(in: request), let session = signer.session(fromCookie: cookie) {
            return Visitor(session: session, isNew: false, language: language, secure: secure)
        }
        return Visitor(session: SessionSigner.newSessionID(), isNew: true, language: language, secure: secure)
    }

    /// The session cookie's value, read straight from the Cookie header.
    static func sessionCookie(in request: Request) -> String? {
        let name = SessionSigner.cookieName + "="
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(name) { return String(trimmed.dropFirst(name.count)) }
            }
        }
        return nil
    }

    private func html(_ body: String, status: HTTPResponse.Status = .ok, visitor: Visitor?) -> Response {
        var response = Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        if let visitor, visitor.isNew { response.setCookie(sessionCookie(visitor)) }
        return response
    }

    private func sessionCookie(_ visitor: Visitor) -> Cookie {
        Cookie(name: SessionSigner.cookieName, value: signer.cookieValue(for: visitor.session), path: "/",
               secure: visitor.secure, httpOnly: true, sameSite: .lax)
    }

    private func redirect(_ location: String, visitor: Visitor? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let visitor, visitor.isNew { response.setCookie(sessionCookie(visitor)) }
        return response
    }

    private func answerContext(_ pages: SurveyPages, language: String) -> AnswerContext {
        AnswerContext(language: language, now: clock(), timeZone: pages.navigator.timeZone)
    }

    /// The session's run in progress, or a new one started now.
    private func activeOrNewRecord(_ pages: SurveyPages, visitor: Visitor) async throws -> RunRecord {
        if !visitor.isNew, var record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier) {
            if record.savedAt != nil {
                // Back in the browser that saved it: carry on, and the code and link stop working.
                record.savedAt = nil
                record.resume = nil
                record.updatedAt = clock()
                record = (try? await store.update(record)) ?? record
            }
            return record
        }
        let now = clock()
        let run = pages.navigator.start(uuid: UUID(), now: now)
        metrics.runsStarted.increment()
        return try await store.insert(RunRecord(run: run, surveyIdentifier: pages.task.identifier, sessionID: visitor.session, updatedAt: now))
    }

    // MARK: Pages

    func index(_ request: Request) async throws -> Response {
        guard let first = catalog.surveys.values.first else { throw HTTPError(.notFound) }
        let surveys = catalog.surveys.values.sorted { $0.task.identifier < $1.task.identifier }.map { pages -> [String: Any] in
            ["identifier": pages.task.identifier, "title": pages.texts.plain(pages.task.title, language: nil) ?? pages.task.identifier]
        }
        let body = first.renderPage("index", language: "en", title: "Surveys", values: ["surveys": surveys, "surveyTitle": "Surveys"])
        return html(body, visitor: nil)
    }

    func show(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        let record = try await activeOrNewRecord(pages, visitor: visitor)
        if record.run.isFinished { return redirect("/surveys/\(pages.task.identifier)/done", visitor: visitor) }
        guard let body = pages.renderStep(run: record.run, visit: record.run.cursor, language: visitor.language,
                                          csrfToken: signer.csrfToken(for: visitor.session),
                                          context: answerContext(pages, language: visitor.language)) else {
            throw HTTPError(.internalServerError)
        }
        return html(body, visitor: visitor)
    }

    func change(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard !visitor.isNew, let record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier),
              let index = context.parameters.get("visit", as: Int.self), index >= 0, index < record.run.cursor else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        guard let body = pages.renderStep(run: record.run, visit: index, language: visitor.language,
                                          csrfToken: signer.csrfToken(for: visitor.session), returnToReview: true,
                                          context: answerContext(pages, language: visitor.language)) else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        return html(body, visitor: visitor)
    }

    func submit(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let identifier = pages.task.identifier
        let visitor = visitor(request, pages: pages)
        let fields = try await formFields(request)
        guard !visitor.isNew, signer.checkCSRF(fields["_csrf"], session: visitor.session) else {
            throw HTTPError(.forbidden, message: "This form has expired. Open the survey again to carry on.")
        }
        guard var record = try await store.activeRecord(session: visitor.session, survey: identifier) else {
            if try await store.lastFinishedRecord(session: visitor.session, survey: identifier) != nil {
                return redirect("/surveys/\(identifier)/done")
            }
            return redirect("/surveys/\(identifier)")
        }
        let navigator = pages.navigator
        var run = record.run
        var index = fields["_visit"].flatMap(Int.init) ?? run.cursor
        if index < 0 || index > run.cursor { index = run.cursor }
        if let page = fields["_page"].flatMap(Int.init), let step = navigator.step(of: run.visits[index]),
           navigator.pages(of: step).indices.contains(page) {
            run.visits[index].page = page
        }
        let now = clock()
        switch fields["_action"] ?? "next" {
        case "back":
            run.cursor = index
            run = navigator.back(run, now: now)
        case "skip":
            run = navigator.skip(run, visit: index, now: now)
        case "save":
            record.savedAt = now
            record.resume = ResumeTicket.make(now: now, lifetime: configuration.resumeLifetime)
            record.updatedAt = now
            do {
                _ = try await store.update(record)
            } catch let error as RunStoreError where error.isConflict {
                return redirect("/surveys/\(identifier)")
            }
            metrics.runsSaved.increment()
            return redirect("/surveys/\(identifier)/saved")
        case "cancel":
            return redirect("/surveys/\(identifier)/cancel")
        case "discard":
            try await store.delete(id: record.id)
            return redirect("/surveys/\(identifier)/discarded")
        default:
            let answerContext = answerContext(pages, language: visitor.language)
            let returning = fields["_return"] == "1"
            switch navigator.answer(run, visit: index, fields: fields, context: answerContext, returnToCurrent: returning) {
            case .rejected(let issues):
                metrics.validationErrors.increment()
                guard let body = pages.renderStep(run: run, visit: index, language: visitor.language,
                                                  csrfToken: signer.csrfToken(for: visitor.session), submitted: fields,
                                                  issues: issues, returnToReview: returning, context: answerContext) else {
                    throw HTTPError(.internalServerError)
                }
                return html(body, status: .unprocessableContent, visitor: nil)
            case .accepted(let next):
                run = next
            }
        }
        record.run = run
        record.updatedAt = now
        do {
            if run.finishReason == .completed, configuration.webhookURL != nil {
                // The completion and its webhook are written together: neither exists without the other.
                record = try await store.update(record, enqueuing: completionEvent(record, pages: pages))
            } else {
                record = try await store.update(record)
            }
        } catch let error as RunStoreError where error.isConflict {
            // Another request moved the run first: show where it stands now.
            return redirect("/surveys/\(identifier)")
        }
        if record.run.finishReason == .completed { metrics.runsCompleted.increment() }
        if record.run.finishReason == .completed, let returnURL = record.returnURL {
            // A run made through the API sends the participant back where the researcher asked.
            return redirect(returnURL)
        }
        return redirect(record.run.isFinished ? "/surveys/\(identifier)/done" : "/surveys/\(identifier)")
    }

    private func formFields(_ request: Request) async throws -> FormFields {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            throw HTTPError(.unsupportedMediaType, message: "Send the form as application/x-www-form-urlencoded.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: configuration.maximumBodySize)
        } catch {
            throw HTTPError(.contentTooLarge, message: "The form is too large.")
        }
        do {
            return try FormDecoding.decode(String(buffer: buffer))
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    func cancelPage(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard !visitor.isNew, let record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier) else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        let catalogWords = Catalog(language: visitor.language)
        let body = pages.renderPage("cancel", language: visitor.language, title: catalogWords["cancelTitle"], values: [
            "csrf": signer.csrfToken(for: visitor.session), "visit": String(record.run.cursor),
        ])
        return html(body, visitor: visitor)
    }

    func message(_ request: Request, _ context: SurveyRequestContext, kind: String, titleKey: String) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        let body = pages.renderPage(kind, language: visitor.language, title: Catalog(language: visitor.language)[titleKey])
        return html(body, visitor: visitor)
    }

    func done(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard !visitor.isNew, let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier),
              record.run.finishReason == .completed else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        if let last = record.run.visits.last, pages.navigator.step(of: last)?.isCompletion == true,
           let body = pages.renderStep(run: record.run, visit: record.run.visits.count - 1, language: visitor.language,
                                       csrfToken: signer.csrfToken(for: visitor.session),
                                       context: answerContext(pages, language: visitor.language)) {
            return html(body, visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        var values: [String: Any] = [:]
        if pages.task.showAnswersOnCompletion == true { values["answersURL"] = "/surveys/\(pages.task.identifier)/answers" }
        return html(pages.renderPage("finished", language: visitor.language, title: words["completedTitle"], values: values), visitor: visitor)
    }

    /// The answers of the browser's finished run, when the survey offers them.
    func answers(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard pages.task.showAnswersOnCompletion == true, !visitor.isNew,
              let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier),
              record.run.finishReason == .completed else {
            throw HTTPError(.notFound, message: "There are no answers to show here.")
        }
        return html(pages.renderAnswers(run: record.run, language: visitor.language, context: answerContext(pages, language: visitor.language)),
                    visitor: visitor)
    }

    func result(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard !visitor.isNew, let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier) else {
            throw HTTPError(.notFound, message: "This browser has no finished run of this survey.")
        }
        let result = pages.navigator.result(of: record.run, now: record.updatedAt)
        let zone = pages.navigator.timeZone
        let json = request.uri.queryParameters.get("format") == "researchkit" ? result.researchKitJSON(in: zone) : result.json(in: zone)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: JSONWriter.string(json))))
    }
}

// MARK: Save for later and resume

extension ParticipantController {
    /// After "Save for later": the resume link and code, and when they expire.
    func saved(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, pages: pages)
        guard !visitor.isNew, let record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier),
              record.savedAt != nil, let ticket = record.resume else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        let code = String(ticket.code.prefix(4)) + " " + String(ticket.code.suffix(4))
        let expires = Messages.day(CalendarDate(ticket.expiresAt, in: pages.navigator.timeZone))
        let words = Catalog(language: visitor.language)
        let body = pages.renderPage("saved", language: visitor.language, title: words["savedTitle"], values: [
            "resumeCode": code, "resumeLink": configuration.absoluteURL("/resume/\(ticket.token)", for: request),
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
        let visitor = visitor(request, pages: nil)
        return html(resumePage(pages, visitor: visitor, typed: "", error: nil), visitor: visitor)
    }

    private func resumePage(_ pages: SurveyPages, visitor: Visitor, typed: String, error: String?) -> String {
        let words = Catalog(language: visitor.language)
        var values: [String: Any] = ["csrf": signer.csrfToken(for: visitor.session), "typed": typed, "surveyTitle": words["resumeTitle"]]
        if let error {
            values["resumeError"] = error
            values["titlePrefix"] = "Error: "
            values["errorSummary"] = SurveyPages.errorSummaryMarkup(
                [AnswerIssue(field: "code", code: .notAChoice, message: error)], library: catalog.library, language: visitor.language)
        }
        return pages.renderPage("resume", language: visitor.language, title: words["resumeTitle"], values: values)
    }

    func resumeWithCode(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try anyPages()
        let visitor = visitor(request, pages: nil)
        let fields = try await formFields(request)
        guard !visitor.isNew, signer.checkCSRF(fields["_csrf"], session: visitor.session) else {
            throw HTTPError(.forbidden, message: "This form has expired. Open the resume page again.")
        }
        let now = clock()
        let typed = fields["code"] ?? ""
        guard await resumeAttempts.allows(context.clientKey, now: now) else {
            return html(resumePage(pages, visitor: visitor, typed: typed, error: "Too many codes were tried. Wait 15 minutes, then try again"),
                        status: .tooManyRequests, visitor: nil)
        }
        guard let code = ResumeTicket.normalize(typed) else {
            await resumeAttempts.recordFailure(context.clientKey, now: now)
            return html(resumePage(pages, visitor: visitor, typed: typed, error: "Enter the 8-character code you were given, like ABCD 2345"),
                        status: .unprocessableContent, visitor: nil)
        }
        guard let record = try await store.record(resumeCode: code) else {
            await resumeAttempts.recordFailure(context.clientKey, now: now)
            return html(resumePage(pages, visitor: visitor, typed: typed, error: "No saved survey has this code. Check it and try again"),
                        status: .unprocessableContent, visitor: nil)
        }
        return try await resume(record, visitor: visitor, now: now, onExpired: {
            html(resumePage(pages, visitor: visitor, typed: typed, error: "This code has expired. Start the survey again"),
                 status: .unprocessableContent, visitor: nil)
        })
    }

    func resumeWithLink(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let visitor = visitor(request, pages: nil)
        let now = clock()
        guard await resumeAttempts.allows(context.clientKey, now: now) else {
            throw HTTPError(.tooManyRequests, message: "Too many resume links were tried. Wait 15 minutes, then try again.")
        }
        guard let token = context.parameters.get("token"), let record = try await store.record(resumeToken: token) else {
            await resumeAttempts.recordFailure(context.clientKey, now: now)
            throw HTTPError(.notFound, message: "This resume link is not valid. Use the code you were given at /resume.")
        }
        return try await resume(record, visitor: visitor, now: now, onExpired: {
            ErrorPage.response(for: .gone, message: "This resume link has expired. Start the survey again.")
        })
    }

    /// Binds a saved run to this browser and shows it where it stopped; the code and link
    /// then stop working.
    private func resume(_ record: RunRecord, visitor: Visitor, now: Date, onExpired: () -> Response) async throws -> Response {
        guard let ticket = record.resume, !record.run.isFinished else { return onExpired() }
        guard ticket.expiresAt > now else { return onExpired() }
        var resumed = record
        resumed.sessionID = visitor.session
        resumed.savedAt = nil
        resumed.resume = nil
        resumed.updatedAt = now
        do {
            _ = try await store.update(resumed)
        } catch let error as RunStoreError where error.isConflict {
            return onExpired()
        }
        return redirect("/surveys/\(record.surveyIdentifier)", visitor: visitor)
    }
}

extension ParticipantController {
    /// The body of a completion webhook: the run, its participant id and its result (spec §5).
    func completionEvent(_ record: RunRecord, pages: SurveyPages) -> String {
        let result = pages.navigator.result(of: record.run, now: record.updatedAt)
        return JSONWriter.string(.object([
            "event": .string("run.completed"),
            "run": .string(record.id.uuidString.lowercased()),
            "survey": .string(record.surveyIdentifier),
            "participantId": record.externalID.map(JSONValue.string),
            "result": result.json(in: pages.navigator.timeZone),
        ]), pretty: false)
    }
}
