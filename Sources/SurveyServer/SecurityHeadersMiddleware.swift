import Hummingbird
import Logging
import SurveyRendering

/// Adds the headers every response carries: a strict Content-Security-Policy with no inline
/// script or style, no framing, no sniffing, no referrer. Turns errors into pages, and logs
/// one error line with the request id for every 5xx, the id the error page shows.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self' https:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
            if response.status.code >= 500 { logFailure(request, context, status: response.status, error: nil) }
        } catch let error as HTTPError {
            let failed = error.status.code >= 500
            if failed { logFailure(request, context, status: error.status, error: error) }
            response = ErrorPage.response(for: error.status, message: error.body, requestID: failed ? context.id : nil)
        } catch {
            logFailure(request, context, status: .internalServerError, error: error)
            response = ErrorPage.response(for: .internalServerError, message: nil, requestID: context.id)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        response.headers[.init("X-Frame-Options")!] = "DENY"
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

/// A plain page for an error status, saying what to do, never how the server failed. A 5xx
/// page shows the request's id, which the error line of the log also has.
enum ErrorPage {
    static func response(for status: HTTPResponse.Status, message: String?, requestID: String? = nil) -> Response {
        let text = message ?? (status == .notFound ? "There is nothing at this address." : "Something went wrong. Try again in a moment.")
        let reference = requestID.map { "<p class=\"body\">\(HTMLEscaping.escape(Catalog(language: "en").reference($0)))</p>" } ?? ""
        let escaped = HTMLEscaping.escape(text)
        let title = status == .notFound ? "Page not found" : status.reasonPhrase
        let body = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />\
            <title>\(title)</title><link rel="stylesheet" href="/survey.css" /></head>\
            <body><div class="width-container"><main id="main" class="main"><h1 class="heading-l">\(title)</h1>\
            <p class="body">\(escaped)</p>\(reference)<p class="body"><a class="link" href="/">Surveys</a></p></main></div></body></html>
            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
