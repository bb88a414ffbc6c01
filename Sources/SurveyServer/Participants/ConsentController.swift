import Foundation
import Hummingbird
import NIOCore
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A consent after it was given: the signed copy from the end page, the copy on one's own
/// device with the code a kiosk showed, and withdrawal with the code or link. Codes can be
/// guessed, so they are limited like resume codes; links are too long to guess.
struct ConsentController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let limits: ParticipantLimits

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/surveys/:survey/consent.pdf") { request, context in try await ownCopy(request, context) }
        router.get("/copy") { request, context in try await codePage(request, context, purpose: .copy) }
        router.post("/copy") { request, context in try await withCode(request, context, purpose: .copy) }
        router.get("/withdraw") { request, context in try await codePage(request, context, purpose: .withdraw) }
        router.post("/withdraw") { request, context in try await withCode(request, context, purpose: .withdraw) }
        router.get("/withdraw/:token") { request, context in try await linkPage(request, context) }
        router.post("/withdraw/:token") { request, context in try await withdrawByLink(request, context) }
    }

    enum Purpose {
        case copy, withdraw
        var path: String { self == .copy ? "/copy" : "/withdraw" }
    }

    /// The signed copy of this browser's completed run, from the end page.
    func ownCopy(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await runs.completedRun(pages.survey, session: visitor.session),
              let copy = try await runs.consentCopy(of: record) else {
            throw PageError(.notFound, "errorNoResult")
        }
        return pdf(copy, survey: pages.task.identifier)
    }

    func pdf(_ copy: RunDocument, survey: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: "application/pdf", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"consent-\(survey).pdf\"",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: copy.bytes)))
    }

    private func anyPages() throws -> SurveyPages {
        guard let pages = catalog.surveys.values.min(by: { $0.task.identifier < $1.task.identifier }) else { throw HTTPError(.notFound) }
        return pages
    }

    private func page(_ pages: SurveyPages, visitor: Visitor, purpose: Purpose, typed: String = "", errorKey: String? = nil,
                      token: String? = nil) -> String {
        let words = Catalog(language: visitor.language)
        let title = words[purpose == .copy ? "consentCopyTitle" : "consentWithdrawTitle"]
        var values: [String: Any] = [
            "csrf": signer.pageToken(session: visitor.session, shownAt: clock()), "typed": typed, "surveyTitle": title,
            "codeTitle": title, "codeAction": token.map { "/withdraw/" + $0 } ?? purpose.path, "askCode": token == nil,
            "codeIntro": words[purpose == .copy ? "consentCopyIntro" : token == nil ? "consentWithdrawIntro" : "consentWithdrawText"],
            "codeButton": words[purpose == .copy ? "consentCopyGet" : "consentWithdrawButton"], "warning": purpose == .withdraw,
        ]
        var issues: [AnswerIssue] = []
        if let errorKey {
            values["codeError"] = words[errorKey]
            issues = [AnswerIssue(field: "code", code: .notAChoice, problem: .catalogEntry(errorKey))]
        }
        return pages.renderPage("consentCode", language: visitor.language, title: title, values: values, issues: issues)
    }

    func codePage(_ request: Request, _ context: SurveyRequestContext, purpose: Purpose) async throws -> Response {
        let visitor = visitor(request, context, pages: nil)
        return html(page(try anyPages(), visitor: visitor, purpose: purpose), visitor: visitor)
    }

    /// A typed code: a client past its limit, or a code whose first half was tried too often,
    /// is refused before the look-up, as resume codes are.
    func withCode(_ request: Request, _ context: SurveyRequestContext, purpose: Purpose) async throws -> Response {
        let pages = try anyPages()
        let visitor = visitor(request, context, pages: nil)
        let fields = try await formFields(request)
        let now = clock()
        guard !visitor.isNew, signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil else {
            throw PageError(.forbidden, "formExpired")
        }
        let typed = fields["code"] ?? ""
        let badCode = purpose == .copy ? "consentCopyBadCode" : "consentWithdrawBadCode"
        func refuse(_ key: String, _ status: HTTPResponse.Status) -> Response {
            html(page(pages, visitor: visitor, purpose: purpose, typed: typed, errorKey: key), status: status, visitor: nil)
        }
        let client = clientKey(request, context)
        guard let clientSlot = await limits.resumeByClient.reserve(client, now: now) else { return refuse("resumeTooMany", .tooManyRequests) }
        guard let code = ResumeTicket.normalize(typed) else { return refuse(badCode, .unprocessableContent) }
        let half = String(code.prefix(4))
        guard let codeSlot = await limits.resumeByCode.reserve(half, now: now) else { return refuse("resumeTooMany", .tooManyRequests) }
        guard let record = try await runs.consentRun(code: code) else { return refuse(badCode, .unprocessableContent) }
        await limits.resumeByClient.release(client, reservedAt: clientSlot)
        await limits.resumeByCode.release(half, reservedAt: codeSlot)
        switch purpose {
        case .copy:
            // The copy leaves a kiosk with its code for a short while only; withdrawal keeps it longer.
            guard runs.copyCodeIsFresh(record), let copy = try await runs.consentCopy(of: record) else {
                return refuse(badCode, .unprocessableContent)
            }
            return pdf(copy, survey: record.surveyIdentifier)
        case .withdraw:
            return try await withdrawn(record, pages: pages, visitor: visitor)
        }
    }

    /// A withdrawal link: a page with the button; nothing is looked up or changed until it is pressed.
    func linkPage(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let visitor = visitor(request, context, pages: nil)
        guard let token = context.parameters.get("token"), token.utf8.count <= 64 else { throw HTTPError(.notFound) }
        return html(page(try anyPages(), visitor: visitor, purpose: .withdraw, token: token), visitor: visitor)
    }

    func withdrawByLink(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try anyPages()
        let visitor = visitor(request, context, pages: nil)
        let fields = try await formFields(request)
        guard !visitor.isNew, signer.checkPageToken(fields["_csrf"], session: visitor.session, now: clock()) != nil else {
            throw PageError(.forbidden, "formExpired")
        }
        guard let token = context.parameters.get("token"), token.utf8.count <= 64,
              let record = try await runs.consentRun(token: token) else {
            return errorPage(pages, status: .notFound, titleKey: "notFoundTitle", textKey: "consentWithdrawBadCode", visitor: visitor)
        }
        return try await withdrawn(record, pages: pages, visitor: visitor)
    }

    private func withdrawn(_ record: RunRecord, pages: SurveyPages, visitor: Visitor) async throws -> Response {
        guard try await runs.withdraw(record) else {
            return errorPage(pages, status: .conflict, titleKey: "notFoundTitle", textKey: "consentWithdrawBadCode", visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        let body = pages.renderPage("message", language: visitor.language, title: words["consentWithdrawTitle"],
                                    values: ["heading": words["consentWithdrawTitle"], "text": words["consentWithdrawn"]])
        return html(body, visitor: visitor)
    }
}
