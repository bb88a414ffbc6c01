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

    @Test("The cookie signs the session with its issue time, and CSRF tokens sign the session with the run or the page's time")
    func signatures() throws {
        let secret = Data("a secret of more than thirty-two characters".utf8)
        let signer = SessionSigner(secret: secret, lifetime: 3600)
        let session = SessionSigner.newSessionID()
        let run = UUID()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func mac(_ text: String) -> String {
            Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: secret))))
        }
        let cookie = signer.cookieValue(for: session, issuedAt: now)
        #expect(cookie == session + ".1800000000." + mac("session:" + session + ".1800000000"))
        #expect(signer.session(fromCookie: cookie, now: now)?.session == session)
        #expect(signer.session(fromCookie: cookie, now: now)?.issuedAt == now)
        // Another purpose's signature, or a changed issue time, is not a cookie.
        #expect(signer.session(fromCookie: session + ".1800000000." + mac("csrf:" + session + ".1800000000"), now: now) == nil)
        #expect(signer.session(fromCookie: session + ".1800000001." + cookie.split(separator: ".")[2], now: now) == nil)
        #expect(signer.session(fromCookie: session + "." + mac("session:" + session), now: now) == nil)

        #expect(signer.csrfToken(session: session, run: run) == mac("csrf:" + session + ":" + run.uuidString))
        #expect(signer.checkCSRF(signer.csrfToken(session: session, run: run), session: session, run: run))
        #expect(!signer.checkCSRF(signer.csrfToken(session: session, run: run), session: session, run: UUID()))
        #expect(!signer.checkCSRF(signer.csrfToken(session: session, run: run), session: SessionSigner.newSessionID(), run: run))

        let page = signer.pageToken(session: session, shownAt: now)
        #expect(page == "t1800000000." + mac("page:" + session + ":1800000000"))
        #expect(signer.checkPageToken(page, session: session, now: now.addingTimeInterval(60)) == now)
        #expect(signer.checkPageToken(page, session: SessionSigner.newSessionID(), now: now) == nil)
        #expect(signer.checkPageToken("t1800000001." + page.split(separator: ".")[1], session: session, now: now) == nil)
        #expect(signer.checkPageToken(signer.csrfToken(session: session, run: run), session: session, now: now) == nil)
    }

    @Test("An idle session expires after its lifetime, and a cookie in use is renewed before then")
    func expiry() {
        let signer = SessionSigner(secret: Data(repeating: 3, count: 32), lifetime: 24 * 3600)
        let session = SessionSigner.newSessionID()
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let cookie = signer.cookieValue(for: session, issuedAt: issued)
        #expect(signer.session(fromCookie: cookie, now: issued.addingTimeInterval(23 * 3600))?.session == session)
        #expect(signer.session(fromCookie: cookie, now: issued.addingTimeInterval(24 * 3600 + 1)) == nil)
        // Checked once (and remembered), it still expires.
        #expect(signer.session(fromCookie: cookie, now: issued.addingTimeInterval(30 * 3600)) == nil)
        #expect(!signer.shouldRenew(issuedAt: issued, now: issued.addingTimeInterval(600)))
        #expect(signer.shouldRenew(issuedAt: issued, now: issued.addingTimeInterval(3601)))
        let page = signer.pageToken(session: session, shownAt: issued)
        #expect(signer.checkPageToken(page, session: session, now: issued.addingTimeInterval(25 * 3600)) == nil)
    }
}
