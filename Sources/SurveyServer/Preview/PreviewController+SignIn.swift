import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The preview's door on a deployed server: the token, typed once, gives a signed cookie for
/// twelve hours. Wrong tokens slow their sender down as wrong kiosk PINs do (`SecretGuard`):
/// each try takes a place at once, given back when the token was right.
extension PreviewController {
    static let cookieName = "survey_preview"
    static let lifetime: TimeInterval = 12 * 3600

    /// Runs `page` for a signed-in researcher (anyone, for `survey preview`); others are sent
    /// to the sign-in form.
    func guarded(_ request: Request, _ context: SurveyRequestContext, _ page: () async throws -> Response) async throws -> Response {
        guard token != nil else { return try await page() }
        if Self.isSignedIn(request, signer: signer, now: clock()) { return try await page() }
        return redirect("/preview/sign-in")
    }

    /// Whether the request carries the preview's cookie, signed by this server and not yet
    /// expired: the dashboard lets in whoever the preview does.
    static func isSignedIn(_ request: Request, signer: SessionSigner, now: Date) -> Bool {
        guard let value = request.cookie(named: cookieName), let dot = value.firstIndex(of: "."), let seconds = Int(value[..<dot]),
              constantTimeEqual(signer.mac("preview:", String(seconds)), String(value[value.index(after: dot)...])) else { return false }
        let age = now.timeIntervalSince(Date(timeIntervalSince1970: TimeInterval(seconds)))
        return age >= -300 && age < lifetime
    }

    func signInPage(_ request: Request, _ context: SurveyRequestContext, errorKey: String?, status: HTTPResponse.Status) async -> Response {
        let visitor = visitor(request, context, pages: nil)
        var values: [String: Any] = ["csrf": signer.pageToken(session: visitor.session, shownAt: clock())]
        if let errorKey { values["tokenError"] = PreviewChrome[errorKey] }
        await library.current()
        guard let mustache = await library.mustache else {
            return html(PreviewChrome.plainPage(PreviewChrome["templateProblem"], text: await library.templateProblem ?? ""), visitor: nil)
        }
        let body = PreviewChrome.renderPage("previewSignIn", title: PreviewChrome["signInTitle"], values: values, library: mustache)
        return html(body, status: status, visitor: visitor)
    }

    func signIn(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        guard let token else { return redirect("/preview") }
        let visitor = visitor(request, context, pages: nil)
        let fields = try await formFields(request)
        let now = clock()
        guard !visitor.isNew, signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil else {
            throw PageError(.forbidden, "formExpired")
        }
        let client = clientKey(request, context)
        let decision = await signInGuard.reserve(client, now: now, what: "preview tokens", logger: context.logger)
        guard case .check(let reservedAt) = decision else {
            var response = await signInPage(request, context, errorKey: "tokenTooMany", status: .tooManyRequests)
            if case .wait(let seconds) = decision { response.headers[.retryAfter] = String(seconds) }
            return response
        }
        guard constantTimeEqual(fields["token"] ?? "", token) else {
            try? await auditStore?.appendAudit([AuditEvent("preview.tokenRefused", by: .system("preview"), at: now)], chain: AuditEntry.accessChain)
            return await signInPage(request, context, errorKey: "tokenWrong", status: .unprocessableContent)
        }
        await signInGuard.release(client, reservedAt: reservedAt)
        do {
            try await auditStore?.appendAudit([AuditEvent("preview.signedIn", by: .staff("preview token"), at: now)], chain: AuditEntry.accessChain)
        } catch {
            throw HTTPError(.serviceUnavailable)
        }
        let seconds = String(Int(now.timeIntervalSince1970))
        var response = redirect("/preview", visitor: visitor)
        response.setPlainCookie(Self.cookieName, seconds + "." + signer.mac("preview:", seconds), maxAge: Int(Self.lifetime),
                                secure: visitor.secure)
        return response
    }
}
