import Crypto
import Foundation

/// Signs and checks the session cookie and derives each session's CSRF token.
///
/// A session is a random 128-bit identifier. The cookie holds it with an HMAC-SHA256 of it,
/// so a forged or altered cookie is refused; the CSRF token is another HMAC of it, so the
/// server keeps no token table and any replica can check it.
struct SessionSigner: Sendable {
    static let cookieName = "survey_session"
    private let secret: Data

    init(secret: Data) {
        self.secret = secret
    }

    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    private func mac(_ purpose: String, _ value: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data((purpose + ":" + value).utf8), using: SymmetricKey(data: secret))
        return Base64URL.encode(Data(code))
    }

    func cookieValue(for session: String) -> String {
        session + "." + mac("session", session)
    }

    /// The session in a cookie value, if its signature holds.
    func session(fromCookie value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 22 else { return nil }
        let session = String(parts[0])
        return constantTimeEqual(mac("session", session), String(parts[1])) ? session : nil
    }

    func csrfToken(for session: String) -> String {
        mac("csrf", session)
    }

    func checkCSRF(_ token: String?, session: String) -> Bool {
        guard let token else { return false }
        return constantTimeEqual(csrfToken(for: session), token)
    }

}

/// Compares two secrets in time that does not depend on where they first differ.
func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8)
    let b = Array(rhs.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
