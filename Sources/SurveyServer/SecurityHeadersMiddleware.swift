import Hummingbird

/// Adds the headers every response carries: a strict Content-Security-Policy with no inline
/// script or style, no framing, no sniffing, no referrer.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'none'; style-src 'self'; img-src 'self'; media-src 'self' https:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = ErrorPage.response(for: error.status, message: error.body)
        } catch {
            response = ErrorPage.response(for: .internalServerError, message: nil)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        return response
    }
}

/// A plain page for an error status, saying what to do, never how the server failed.
enum ErrorPage {
    static func response(for status: HTTPResponse.Status, message: String?) -> Response {
        let text = message ?? (status == .notFound ? "There is nothing at this address." : "Something went wrong. Try again in a moment.")
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        let title = status == .notFound ? "Page not found" : status.reasonPhrase
        let body = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />\
            <title>\(title)</title><link rel="stylesheet" href="/survey.css" /></head>\
            <body><div class="width-container"><main id="main" class="main"><h1 class="heading-l">\(title)</h1>\
            <p class="body">\(escaped)</p><p class="body"><a class="link" href="/">Surveys</a></p></main></div></body></html>
            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
