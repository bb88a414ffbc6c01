import Hummingbird

/// HEAD is GET without the body (RFC 9110 §9.3.2): the page's status and headers, its
/// Content-Length included, and nothing after them. The router knows only GET routes and
/// picks a route before any middleware runs, so HEAD is turned into GET in front of the
/// router, and the answer's body dropped on the way out. Static files, error pages and
/// redirects are answered the same way.
struct HeadAsGet<Builder: HTTPResponderBuilder>: HTTPResponderBuilder {
    let router: Builder

    init(_ router: Builder) {
        self.router = router
    }

    func buildResponder() -> Responder {
        Responder(inner: router.buildResponder())
    }

    struct Responder: HTTPResponder {
        let inner: Builder.Responder

        @concurrent func respond(to request: Request, context: Builder.Responder.Context) async throws -> Response {
            guard request.method == .head else { return try await inner.respond(to: request, context: context) }
            var head = request.head
            head.method = .get
            var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
            let length = response.headers[.contentLength] ?? response.body.contentLength.map { String($0) }
            // Setting the body sets Content-Length to its own, 0: the GET's is put back after.
            response.body = ResponseBody()
            response.headers[.contentLength] = length
            return response
        }
    }
}
