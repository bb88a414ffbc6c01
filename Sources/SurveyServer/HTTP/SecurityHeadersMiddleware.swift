import Foundation
import Hummingbird
import Logging
import SurveyRendering
import SurveyStorage

/// Adds the headers every response carries: a strict Content-Security-Policy with no inline
/// script or style, no framing, no sniffing, no referrer. Turns errors into pages, and logs
/// one error line with the request id for every 5xx, the id the error page shows.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
            if response.status.code >= 500 { logFailure(request, context, status: response.status, error: nil) }
        } catch let error as PageError {
            response = ErrorPage.response(for: error.status, key: error.key, request: request)
        } catch let error as HTTPError {
            let failed = error.status.code >= 500
            if failed { logFailure(request, context, status: error.status, error: error) }
            response = ErrorPage.response(for: error.status, key: nil, request: request, requestID: failed ? context.id : nil)
        } catch where StoreFailure.isUnavailable(error) {
            logFailure(request, context, status: .serviceUnavailable, error: error)
            response = ErrorPage.response(for: .serviceUnavailable, key: "errorStoreUnavailable", request: request, requestID: context.id)
            response.headers[.retryAfter] = StoreFailure.retryAfterSeconds
        } catch {
            logFailure(request, context, status: .internalServerError, error: error)
            response = ErrorPage.response(for: .internalServerError, key: nil, request: request, requestID: context.id)
        }
        // A page that set its own policy (the signing page's, which allows its one script) keeps it.
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers.append(contentsOf: SecurityHeaders.fields)
        } else {
            response.headers.append(contentsOf: SecurityHeaders.fieldsButPolicy)
        }
        return response
    }

    /// The error line of a 5xx: the request id, the route pattern and what failed, never the
    /// path as sent, its query or its body.
    private func logFailure(_ request: Request, _ context: Context, status: HTTPResponse.Status, error: (any Error)?) {
        var metadata: Logger.Metadata = ["status": "\(status.code)", "method": "\(request.method.rawValue)",
                                         "route": "\(context.endpointPath ?? "-")"]
        if let error { metadata["error"] = "\(String(reflecting: type(of: error))): \(error)" }
        context.logger.error("Request failed", metadata: metadata)
    }
}

/// The headers every response carries, their values checked once: setting each by name on
/// every response checked its value's characters and looked for an earlier one each time.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self' https:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"

    static let fields: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        .xContentTypeOptions: "nosniff",
        .init("Referrer-Policy")!: "no-referrer",
        .init("X-Frame-Options")!: "DENY",
    ]

    static let fieldsButPolicy: HTTPFields = [
        .xContentTypeOptions: "nosniff",
        .init("Referrer-Policy")!: "no-referrer",
        .init("X-Frame-Options")!: "DENY",
    ]

    /// The consent review's signing page: the same policy, and the drawing pad's script from
    /// the server's own files. No other page runs a script.
    static let signingPage: HTTPFields = [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
        .contentSecurityPolicy: "script-src 'self'; " + contentSecurityPolicy,
    ]

    /// A page that no cache keeps: a step, an error, a participant's result.
    static let page: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
}

/// An error a participant's request meets, with the catalog key of the sentence that says
/// what to do; the error page words it in the request's language.
struct PageError: Error {
    let status: HTTPResponse.Status
    let key: String

    init(_ status: HTTPResponse.Status, _ key: String) {
        self.status = status
        self.key = key
    }
}

/// A plain page for an error status, saying what to do, never how the server failed, in the
/// language the request asks for. A 5xx page shows the request's id, which the error line of
/// the log also has. On a kiosk's address its one link goes back to the kiosk's start screen,
/// elsewhere to the list of surveys, and the page takes the kiosk's large targets.
enum ErrorPage {
    static func response(for status: HTTPResponse.Status, key: String?, request: Request, requestID: String? = nil) -> Response {
        let language = Self.language(of: request)
        let words = Catalog(language: language)
        let text = words[key ?? Self.key(for: status)]
        let title = words[status == .notFound ? "notFoundTitle" : "errorTitle"]
        let reference = requestID.map { "<p class=\"body\">\(HTMLEscaping.escape(words.reference($0)))</p>" } ?? ""
        let link: (href: String, text: String)
        let path = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        let onKiosk = path.count >= 2 && path[0] == "kiosk" && path[1].utf8.allSatisfy({ $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "\"") })
        if onKiosk {
            link = ("/kiosk/" + path[1], words["kioskBackToStart"])
        } else {
            link = ("/", words["surveys"])
        }
        let body = """
            <!DOCTYPE html>
            <html lang="\(language)" dir="\(Catalog.isRightToLeft(language) ? "rtl" : "ltr")"><head><meta charset="utf-8" />\
            <meta name="viewport" content="width=device-width, initial-scale=1" />\
            <title>\(HTMLEscaping.escape(title))</title><link rel="stylesheet" href="/survey.css" /></head>\
            <body\(onKiosk ? " class=\"kiosk\"" : "")><div class="width-container"><main id="main" class="main"><h1 class="heading-l">\(HTMLEscaping.escape(title))</h1>\
            <p class="body">\(HTMLEscaping.escape(text))</p>\(reference)\
            <p class="body"><a class="link" href="\(HTMLEscaping.escape(link.href))">\(HTMLEscaping.escape(link.text))</a></p></main></div></body></html>
            """
        return Response(status: status, headers: SecurityHeaders.page,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The sentence of a status no handler worded.
    static func key(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "errorNotFoundText"
        case .methodNotAllowed: "errorMethod"
        case .contentTooLarge: "errorFormTooLarge"
        case .unsupportedMediaType, .badRequest: "errorFormType"
        case .forbidden: "formExpired"
        default: "errorText"
        }
    }

    /// The page's language: `?lang=`, else the first of `Accept-Language` the product has words for.
    static func language(of request: Request) -> String {
        var wanted: [String] = []
        if let explicit = request.uri.queryParameters.get("lang") { wanted.append(explicit) }
        if let remembered = request.cookie(named: "survey_lang") { wanted.append(remembered) }
        if let header = request.headers[.acceptLanguage] {
            wanted += header.split(separator: ",").compactMap { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) }
        }
        for tag in wanted {
            let primary = tag.lowercased().split(separator: "-").first.map(String.init) ?? ""
            if Catalog.languages.contains(primary) { return primary }
        }
        return "en"
    }
}
