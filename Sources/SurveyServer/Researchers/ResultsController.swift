import Foundation
import Hummingbird
import JSON
import NIOCore
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A finished run, for the browser that finished it: the done page, the way back to the
/// researcher's site, the answers page, and `result.json`.
struct ResultsController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/surveys/:survey/done") { request, context in try await done(request, context) }
        router.get("/surveys/:survey/return") { request, context in try await returning(request, context) }
        router.get("/surveys/:survey/answers") { request, context in try await answers(request, context) }
        router.get("/surveys/:survey/answers.pdf") { request, context in try await answersCopy(request, context) }
        router.get("/surveys/:survey/result.json") { request, context in try await result(request, context) }
    }

    /// The completion step the run ended on, or a thank-you page.
    func done(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await runs.finishedRun(pages.survey, session: visitor.session),
              [.completed, .declined, .screenedOut, .quotaFull].contains(record.run.finishReason) else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        if record.run.finishReason == .declined {
            return errorPage(pages, status: .ok, titleKey: "consentDeclinedTitle", textKey: "consentDeclinedText", visitor: visitor)
        }
        if record.run.finishReason == .quotaFull {
            return errorPage(pages, status: .ok, titleKey: "quotaFullTitle", textKey: "quotaFullText", visitor: visitor)
        }
        if let end = consentEnd(record, request, context) {
            return html(pages.renderConsentDone(run: record.run, end: end, language: visitor.language,
                                                timeZone: runs.timeZone(of: pages.survey), presentation: .web), visitor: visitor)
        }
        if let visit = runs.completionVisit(of: record, in: pages.survey),
           let body = pages.renderStep(run: record.run, visit: visit, language: visitor.language,
                                       csrfToken: signer.csrfToken(session: visitor.session, run: record.id),
                                       context: answerContext(pages, language: visitor.language)) {
            return html(body, visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        var values: [String: Any] = [:]
        if pages.task.showAnswersOnCompletion == true { values["answersURL"] = "/surveys/\(pages.task.identifier)/answers" }
        return html(pages.renderPage("finished", language: visitor.language, title: words["completedTitle"], values: values), visitor: visitor)
    }

    /// What the end page of a certified consent offers, while its code is valid.
    func consentEnd(_ record: RunRecord, _ request: Request, _ context: SurveyRequestContext) -> SurveyPages.ConsentEnd? {
        guard record.run.consent?.copySHA256 != nil, record.run.consent?.withdrawnAt == nil,
              let ticket = record.resume, let code = ticket.code else { return nil }
        return SurveyPages.ConsentEnd(code: code, codeExpires: ticket.expiresAt,
                                      withdrawLink: configuration.absoluteURL("/withdraw/\(ticket.token)", for: request, context),
                                      withdrawPage: configuration.absoluteURL("/withdraw", for: request, context),
                                      copyPage: configuration.absoluteURL("/copy", for: request, context),
                                      copyMinutes: Int(RunService.copyCodeLifetime / 60))
    }

    /// After a run made through the API is completed: a page that sends the participant on to
    /// the researcher's return address at once (a refresh, and a link for browsers without one).
    func returning(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await runs.finishedRun(pages.survey, session: visitor.session),
              let returnURL = runs.panelAddress(of: record, in: pages.survey) else {
            return redirect("/surveys/\(pages.task.identifier)/done", visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        // A participant screened out, or over a full quota, is thanked for their interest, not their answers.
        let screenedOut = record.run.finishReason?.isScreenOut == true
        let title = words[screenedOut ? "quotaFullTitle" : "returningTitle"]
        let body = pages.renderPage("returning", language: visitor.language, title: title,
                                    values: ["returnURL": returnURL, "refresh": "0; url=" + returnURL, "returningTitle": title,
                                             "returningText": words[screenedOut ? "returningScreenOutText" : "returningText"]])
        return html(body, visitor: visitor)
    }

    /// The answers of the browser's completed run, when the survey offers them.
    func answers(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard pages.task.showAnswersOnCompletion == true, !visitor.isNew,
              let record = try await runs.completedRun(pages.survey, session: visitor.session) else {
            throw PageError(.notFound, "errorNoAnswers")
        }
        return html(pages.renderAnswers(run: record.run, language: visitor.language, context: answerContext(pages, language: visitor.language)),
                    visitor: visitor)
    }

    /// The same answers as a PDF, made when asked (it is not a signed document, so nothing is kept).
    func answersCopy(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard pages.task.showAnswersOnCompletion == true, !visitor.isNew,
              let record = try await runs.completedRun(pages.survey, session: visitor.session) else {
            throw PageError(.notFound, "errorNoAnswers")
        }
        let spec = pages.answersCopy(run: record.run, language: visitor.language, context: answerContext(pages, language: visitor.language))
        let bytes = try await ConsentCopies.draw(spec)
        return Response(status: .ok, headers: [
            .contentType: "application/pdf", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"answers-\(pages.task.identifier).pdf\"",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The result of the browser's finished run (`?format=researchkit` for ResearchKit's shape).
    func result(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await runs.finishedRun(pages.survey, session: visitor.session) else {
            throw PageError(.notFound, "errorNoResult")
        }
        guard let format = ResultFormat(query: request.uri.queryParameters.get("format")) else {
            throw PageError(.badRequest, "errorNotFoundText")
        }
        let json = runs.result(of: record, in: pages.survey).json(format)
        return Response(status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: JSONWriter.string(json))))
    }
}
