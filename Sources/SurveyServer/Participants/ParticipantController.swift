import Foundation
import Hummingbird
import NIOCore
import SurveyCore
import SurveyRendering

/// What the participant's controllers share: the surveys, the run service, sessions and
/// their cookies, the page language, and reading a form. Post/Redirect/Get throughout.
///
/// The routes are in three controllers by purpose: taking a survey (`SurveyTakingController`),
/// saving and resuming (`SaveResumeController`), and a finished run's pages and result
/// (`ResultsController`).
protocol ParticipantController: Sendable {
    var catalog: SurveyCatalog { get }
    var runs: RunService { get }
    var signer: SessionSigner { get }
    var configuration: ServerConfiguration { get }
    var clock: @Sendable () -> Date { get }
}

/// Who is asking: their session (new when the request brought no valid cookie), the page
/// language, and whether the cookie must be (re)issued with this response.
struct Visitor {
    let session: String
    let isNew: Bool
    let renewCookie: Bool
    var language: String
    let secure: Bool
    /// Where the pages are shown: the participant's own browser, or a clinic's kiosk.
    var presentation: Presentation = .web
    /// On a kiosk, the participant's turn, whose cookie each response signs again.
    var kioskRun: KioskRun?
    /// True when the participant chose the language on this request (`?lang=` or the
    /// switcher): the response remembers it for the rest of the run.
    var rememberLanguage = false

    /// The address of a survey's pages for this visitor.
    func base(_ pages: SurveyPages) -> String { presentation.base(pages.task.identifier) }
}

extension ParticipantController {
    // MARK: Visitors

    func survey(_ context: SurveyRequestContext) throws -> SurveyPages {
        guard let identifier = context.parameters.get("survey"), let pages = catalog.surveys[identifier] else {
            throw PageError(.notFound, "errorNoSurvey")
        }
        return pages
    }

    func visitor(_ request: Request, _ context: SurveyRequestContext, pages: SurveyPages?) -> Visitor {
        let secure = configuration.isSecure(request, context)
        let language = pages?.language(preferring: Self.wantedLanguages(request)) ?? ErrorPage.language(of: request)
        let chosen = request.uri.queryParameters.get("lang") != nil
        if let cookie = Self.sessionCookie(in: request, secure: secure),
           let (session, issuedAt) = signer.session(fromCookie: cookie, now: clock()) {
            return Visitor(session: session, isNew: false, renewCookie: signer.shouldRenew(issuedAt: issuedAt, now: clock()),
                           language: language, secure: secure, rememberLanguage: chosen)
        }
        return Visitor(session: SessionSigner.newSessionID(), isNew: true, renewCookie: true, language: language, secure: secure,
                       rememberLanguage: chosen)
    }

    /// The cookie that remembers the language a participant chose, until the browser closes.
    static var languageCookieName: String { "survey_lang" }

    /// The languages a request asks for, best first: `?lang=`, the language chosen earlier in
    /// the run, then `Accept-Language` by quality.
    static func wantedLanguages(_ request: Request) -> [String] {
        var wanted: [String] = []
        if let explicit = request.uri.queryParameters.get("lang") { wanted.append(explicit) }
        if let remembered = request.cookie(named: languageCookieName) { wanted.append(remembered) }
        if let header = request.headers[.acceptLanguage] {
            let entries = header.split(separator: ",").map { entry -> (String, Double) in
                let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return (parts.first ?? "", quality)
            }
            wanted += entries.filter { !$0.0.isEmpty && $0.0 != "*" }.sorted { $0.1 > $1.1 }.map(\.0)
        }
        return wanted
    }

    /// The session cookie's value, read straight from the Cookie header; over HTTPS only the
    /// `__Host-` cookie counts.
    static func sessionCookie(in request: Request, secure: Bool) -> String? {
        request.cookie(named: secure ? SessionSigner.secureCookieName : SessionSigner.cookieName)
    }

    /// The client's address, from a trusted proxy's `X-Forwarded-For` when there is one, as the
    /// limits count it: an IPv6 client by its /64, which one household or device is given.
    func clientKey(_ request: Request, _ context: SurveyRequestContext) -> String {
        TrustedProxies.limitKey(context.clientAddress(request, trusting: configuration.trustedProxies))
    }

    // MARK: Responses

    func html(_ body: String, status: HTTPResponse.Status = .ok, visitor: Visitor?, script: Bool = false) -> Response {
        var response = Response(status: status, headers: script ? SecurityHeaders.signingPage : SecurityHeaders.page,
                                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        if let visitor { setCookie(of: visitor, on: &response) }
        return response
    }

    /// A participant's session cookie when it is new or due to be renewed; on a kiosk, the
    /// turn's cookie with this request as its last.
    private func setCookie(of visitor: Visitor, on response: inout Response) {
        if let run = visitor.kioskRun {
            let renewed = KioskRun(session: run.session, language: visitor.language, lastSeen: clock())
            response.setPlainCookie(SessionSigner.kioskRunCookieName(secure: visitor.secure), signer.kioskRunValue(renewed),
                                    maxAge: nil, secure: visitor.secure)
        } else if visitor.renewCookie {
            response.setCookie(sessionCookie(visitor))
        }
        if visitor.rememberLanguage, visitor.kioskRun == nil, visitor.language.utf8.allSatisfy({ $0 != UInt8(ascii: ";") }) {
            response.setPlainCookie(Self.languageCookieName, visitor.language, maxAge: nil, secure: visitor.secure)
        }
    }

    private func sessionCookie(_ visitor: Visitor) -> Cookie {
        Cookie(name: visitor.secure ? SessionSigner.secureCookieName : SessionSigner.cookieName,
               value: signer.cookieValue(for: visitor.session, issuedAt: clock()), maxAge: Int(signer.lifetime), path: "/",
               secure: visitor.secure, httpOnly: true, sameSite: .lax)
    }

    func redirect(_ location: String, visitor: Visitor? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let visitor { setCookie(of: visitor, on: &response) }
        return response
    }

    /// A plain page with a message and no form, in the visitor's language.
    func errorPage(_ pages: SurveyPages, status: HTTPResponse.Status, titleKey: String, textKey: String, visitor: Visitor) -> Response {
        let words = Catalog(language: visitor.language)
        let body = pages.renderPage("message", language: visitor.language, title: words[titleKey],
                                    values: ["heading": words[titleKey], "text": words[textKey]], presentation: visitor.presentation)
        return html(body, status: status, visitor: visitor)
    }

    func answerContext(_ pages: SurveyPages, language: String) -> AnswerContext {
        runs.answerContext(pages.survey, language: language)
    }

    func formFields(_ request: Request) async throws -> FormFields {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            throw PageError(.unsupportedMediaType, "errorFormType")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: configuration.maximumBodySize)
        } catch {
            throw PageError(.contentTooLarge, "errorFormTooLarge")
        }
        guard let fields = try? FormDecoding.decode(Array(buffer.readableBytesView)), fields.conflictingControlField == nil else {
            throw PageError(.badRequest, "errorFormType")
        }
        return fields
    }
}

/// The limits on what one client, or one resume code, may try.
struct ParticipantLimits: Sendable {
    /// Failed resume codes and links per client address.
    let resumeByClient: AttemptLimiter
    /// Failed resume codes per code's first half, whoever tries them: however many addresses
    /// a guesser has, no saved run's code gets more than a few tries in the window.
    let resumeByCode: AttemptLimiter
    /// Runs started per client address, when limited (the run service keeps to it).
    let runStarts: AttemptLimiter?

    init(runsPerHour: Int?) {
        resumeByClient = AttemptLimiter(limit: 5, window: 15 * 60)
        resumeByCode = AttemptLimiter(limit: 5, window: 15 * 60)
        runStarts = runsPerHour.map { AttemptLimiter(limit: $0, window: 3600) }
    }
}
