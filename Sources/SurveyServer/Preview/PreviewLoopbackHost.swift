import Foundation
import Hummingbird
import NIOCore
import SurveyRendering

/// `survey preview` listens on loopback, but a page the researcher opens elsewhere could still
/// reach it through DNS rebinding: a name of the attacker's that resolves to 127.0.0.1 makes
/// the browser treat the preview as that name's own site, free to read. Such a request still
/// carries the attacker's name in its Host, so the local preview answers only requests whose
/// Host is a loopback name (`localhost`, `127.x.y.z`, `[::1]`, with or without a port) and
/// refuses every other with 421 Misdirected Request and a short plain page. A request with no
/// Host at all (HTTP/1.0 from a script) comes from no browser and is let through.
struct PreviewLoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        if let authority = request.head.authority, !Self.isLoopback(authority) {
            let text = PreviewChrome["wrongHostTitle"] + "\n\n" + PreviewChrome["wrongHostText"] + "\n"
            return Response(status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return try await next(request, context)
    }

    /// Whether a Host header names this machine's loopback: `localhost`, an IPv4 address in
    /// 127.0.0.0/8 or `[::1]`, each with an optional port of digits.
    static func isLoopback(_ authority: String) -> Bool {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            rest = authority[colon...]
        } else {
            host = authority[...]
            rest = ""
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit) else { return false }
        }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part).map { $0 <= 255 } == true
        }
    }
}

extension Character {
    /// 0 to 9 and nothing else (`isNumber` also takes other scripts' digits and fractions).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
