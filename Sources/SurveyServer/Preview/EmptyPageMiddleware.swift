import Hummingbird

/// Turns a page answered 200 with nothing in it into a failure: `SecurityHeadersMiddleware`,
/// outside it, logs the failure and answers 500 with the plain error page. A template that
/// renders as nothing (an empty `page.mustache` in a templates folder given to the preview)
/// would otherwise reach the browser as a blank page, with no error anywhere. Only the preview,
/// which reads its templates again as they change, needs it: `survey serve` refuses such a
/// folder at start, and spares every participant's request the check.
struct EmptyPageMiddleware<Context: RequestContext>: RouterMiddleware {
    /// What failed, for the log.
    struct EmptyPage: Error, CustomStringConvertible {
        var description: String { "the page was made empty: a template renders as nothing" }
    }

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard response.status == .ok, response.body.contentLength == 0,
              response.headers[.contentType]?.hasPrefix("text/html") == true else { return response }
        throw EmptyPage()
    }
}
