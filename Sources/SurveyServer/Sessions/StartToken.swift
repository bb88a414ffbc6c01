import Foundation

/// The token of a survey's first page, carrying the parameters its address brought: nothing is
/// stored until the first answer starts the run, so they travel signed in the page's form
/// (never in a later URL). With no parameters it is the page token itself.
extension SessionSigner {
    func startToken(session: String, shownAt: Date, parameters: [String: String]) -> String {
        guard !parameters.isEmpty else { return pageToken(session: session, shownAt: shownAt) }
        let seconds = String(Int(shownAt.timeIntervalSince1970))
        let payload = Self.encode(parameters)
        return "t" + seconds + "." + payload + "." + mac("start:", session + ":" + seconds + ":" + payload)
    }

    /// When the first page was shown and the parameters it carried, if the token is this
    /// session's and not older than the session's lifetime.
    func checkStartToken(_ token: String?, session: String, now: Date) -> (shownAt: Date, parameters: [String: String])? {
        if let shownAt = checkPageToken(token, session: session, now: now) { return (shownAt, [:]) }
        guard let token, token.hasPrefix("t") else { return nil }
        let parts = token.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let seconds = Int(parts[0]) else { return nil }
        let shownAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now.timeIntervalSince(shownAt) < lifetime, shownAt.timeIntervalSince(now) < 300, let parameters = Self.decode(String(parts[1])),
              constantTimeEqual(startToken(session: session, shownAt: shownAt, parameters: parameters), token) else { return nil }
        return (shownAt, parameters)
    }

    /// Parameters as base64url of `name=value` lines, names in order.
    static func encode(_ parameters: [String: String]) -> String {
        let text = parameters.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }.joined(separator: "\n")
        return Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ payload: String) -> [String: String]? {
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        var parameters: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { return nil }
            parameters[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return parameters
    }
}
