import Crypto
import Foundation
import Synchronization

/// Signs and checks the session cookie and derives the CSRF tokens of forms.
///
/// A session is a random 128-bit identifier. The cookie holds it with the time the cookie was
/// issued and an HMAC-SHA256 of both, so a forged or altered cookie is refused and an idle one
/// expires; the server keeps no session table and any replica can check it. A form's CSRF
/// token is another HMAC: of the session and the run it changes, or, on a page that belongs to
/// no run yet (a survey's first page, the resume form, a link's Continue page), of the session
/// and the time the page was shown, which the token carries so that it expires with the session.
struct SessionSigner: Sendable {
    /// The cookie's name over plain HTTP.
    static let cookieName = "survey_session"
    /// The cookie's name over HTTPS: the `__Host-` prefix makes browsers refuse it unless it
    /// is Secure, for the whole host and set by the host itself, so a sibling domain cannot
    /// plant one.
    static let secureCookieName = "__Host-survey_session"

    /// Immutable once made, so sharing it between threads is safe.
    nonisolated(unsafe) private let key: SymmetricKey
    /// How long a session lives without a request.
    let lifetime: TimeInterval

    /// Signatures already checked or made: each costs two SHA-256 runs, and a participant
    /// sends the same cookie with every request.
    private let verifiedCookies = Memo(capacity: 4_096)
    private let tokens = Memo(capacity: 4_096)

    init(secret: Data, lifetime: TimeInterval = 24 * 3600) {
        key = SymmetricKey(data: secret)
        self.lifetime = lifetime
    }

    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    func mac(_ purpose: StaticString, _ value: String) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: UnsafeRawBufferPointer(start: purpose.utf8Start, count: purpose.utf8CodeUnitCount))
        var value = value
        value.withUTF8 { bytes in
            hmac.update(data: UnsafeRawBufferPointer(bytes))
        }
        return hmac.finalize().withUnsafeBytes { Base64URL.encode($0) }
    }

    // MARK: The cookie

    func cookieValue(for session: String, issuedAt: Date) -> String {
        let signed = session + "." + String(Int(issuedAt.timeIntervalSince1970))
        return signed + "." + mac("session:", signed)
    }

    /// The session in a cookie value and when the cookie was issued, if its signature holds
    /// and the session has not been idle past its lifetime.
    func session(fromCookie value: String, now: Date) -> (session: String, issuedAt: Date)? {
        let signed: String
        if let known = verifiedCookies[value] {
            signed = known
        } else {
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].utf8.count == 22, !parts[1].isEmpty, parts[1].utf8.count <= 12,
                  parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            signed = parts[0] + "." + parts[1]
            guard constantTimeEqual(mac("session:", signed), String(parts[2])) else { return nil }
            verifiedCookies[value] = signed
        }
        guard let dot = signed.firstIndex(of: "."), let seconds = Int(signed[signed.index(after: dot)...]) else { return nil }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now.timeIntervalSince(issuedAt) < lifetime, issuedAt.timeIntervalSince(now) < 300 else { return nil }
        return (String(signed[..<dot]), issuedAt)
    }

    /// True when a cookie this old should be issued again, so that a session in use does not
    /// expire: a cookie is renewed at most once every twenty-fourth of the lifetime.
    func shouldRenew(issuedAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(issuedAt) > lifetime / 24
    }

    // MARK: CSRF tokens

    /// The token of forms that change `run`.
    func csrfToken(session: String, run: UUID) -> String {
        let key = session + ":" + run.uuidString
        if let token = tokens[key] { return token }
        let token = mac("csrf:", key)
        tokens[key] = token
        return token
    }

    func checkCSRF(_ token: String?, session: String, run: UUID) -> Bool {
        guard let token else { return false }
        return constantTimeEqual(csrfToken(session: session, run: run), token)
    }

    /// The token of a form on a page that belongs to no run yet, shown at `shownAt`.
    func pageToken(session: String, shownAt: Date) -> String {
        let seconds = String(Int(shownAt.timeIntervalSince1970))
        return "t" + seconds + "." + mac("page:", session + ":" + seconds)
    }

    /// The identifier of the run that the first post from a page shown at `shownAt` starts:
    /// derived from the session and that time under the secret, so it cannot be guessed, and a
    /// first page posted twice (a double click, a second tab) starts one run, not two.
    func runID(session: String, shownAt: Date) -> UUID {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data(("run:" + session + ":" + String(Int(shownAt.timeIntervalSince1970))).utf8))
        let bytes = Array(hmac.finalize())
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], (bytes[6] & 0x0F) | 0x40, bytes[7],
                           (bytes[8] & 0x3F) | 0x80, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// When the page whose form carried `token` was shown, if the token is this session's and
    /// not older than the session's lifetime.
    func checkPageToken(_ token: String?, session: String, now: Date) -> Date? {
        guard let token, token.hasPrefix("t"), let dot = token.firstIndex(of: "."),
              let seconds = Int(token[token.index(after: token.startIndex)..<dot]) else { return nil }
        let shownAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now.timeIntervalSince(shownAt) < lifetime, shownAt.timeIntervalSince(now) < 300,
              constantTimeEqual(pageToken(session: session, shownAt: shownAt), token) else { return nil }
        return shownAt
    }
}

/// A bounded map of results that are costly to compute and never change; emptied when full.
final class Memo: Sendable {
    private let entries = Mutex<[String: String]>([:])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(key: String) -> String? {
        get { entries.withLock { $0[key] } }
        set {
            entries.withLock { entries in
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue
            }
        }
    }
}

/// Compares two secrets in time that depends neither on where they first differ nor on their
/// lengths: both are hashed (SHA-256, whose time grows with its own input only, which the
/// sender already knows) and the digests compared byte by byte to the end. Returning early on
/// a difference in length would tell a guesser how long a PIN or token is.
func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
    let a = digest(lhs), b = digest(rhs)
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
}

private func digest(_ text: String) -> SHA256Digest {
    var text = text
    return text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
}

/// Base64 with the URL- and cookie-safe alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ data: Data) -> String {
        data.withUnsafeBytes { encode($0) }
    }

    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        let length = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            var written = 0
            var index = 0
            while index + 3 <= bytes.count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                for shift in [18, 12, 6, 0] { output[written] = alphabet[Int(group >> UInt32(shift) & 63)]; written += 1 }
                index += 3
            }
            let rest = bytes.count - index
            if rest > 0 {
                let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                for shift in [18, 12, 6].prefix(rest + 1) { output[written] = alphabet[Int(group >> UInt32(shift) & 63)]; written += 1 }
            }
            return written
        }
    }
}
