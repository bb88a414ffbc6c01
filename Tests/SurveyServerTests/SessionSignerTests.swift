import Crypto
import Foundation
import Testing
@testable import SurveyServer

@Suite("Session signing")
struct SessionSignerTests {
    @Test("Base64URL matches Foundation's Base64 with the URL alphabet and no padding, for every length")
    func base64URL() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            let expected = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == expected, "length \(length)")
        }
    }

    @Test("The cookie and the CSRF token are HMAC-SHA256 of the session under their own purposes")
    func signatures() throws {
        let secret = Data("a secret of more than thirty-two characters".utf8)
        let signer = SessionSigner(secret: secret)
        let session = SessionSigner.newSessionID()
        func mac(_ text: String) -> String {
            Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: secret))))
        }
        #expect(signer.cookieValue(for: session) == session + "." + mac("session:" + session))
        #expect(signer.csrfToken(for: session) == mac("csrf:" + session))
        #expect(signer.session(fromCookie: signer.cookieValue(for: session)) == session)
        #expect(signer.session(fromCookie: session + "." + mac("csrf:" + session)) == nil)
        #expect(signer.checkCSRF(signer.csrfToken(for: session), session: session))
        #expect(!signer.checkCSRF(mac("session:" + session), session: session))
    }
}
