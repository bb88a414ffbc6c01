import Crypto
import Foundation
import Synchronization

/// Signs and checks the session cookie and derives each session's CSRF token.
///
/// A session is a random 128-bit identifier. The cookie holds it with an HMAC-SHA256 of it,
/// so a forged or altered cookie is refused; the CSRF token is another HMAC of it, so the
/// server keeps no token table and any replica can check it.
struct SessionSigner: Sendable {
    static let cookieName = "survey_session"
    /// Immutable once made, so sharing it between threads is safe.
    nonisolated(unsafe) private let key: SymmetricKey

    /// Signatures already checked or made: each costs two SHA-256 runs, and a participant
    /// sends the same cookie with every request.
    private let verifiedCookies = Memo(capacity: 4_096)
    private let tokens = Memo(capacity: 4_096)

    init(secret: Data) {
        key = SymmetricKey(data: secret)
    }

    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    private func mac(_ purpose: StaticString, _ value: String) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: UnsafeRawBufferPointer(start: purpose.utf8Start, count: purpose.utf8CodeUnitCount))
        var value = value
        value.withUTF8 { bytes in
            hmac.update(data: UnsafeRawBufferPointer(bytes))
        }
        return hmac.finalize().withUnsafeBytes { Base64URL.encode($0) }
    }

    func cookieValue(for session: String) -> String {
        session + "." + mac("session:", session)
    }

    /// The session in a cookie value, if its signature holds.
    func session(fromCookie value: String) -> String? {
        if let session = verifiedCookies[value] { return session }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 22 else { return nil }
        let session = String(parts[0])
        guard constantTimeEqual(mac("session:", session), String(parts[1])) else { return nil }
        verifiedCookies[value] = session
        return session
    }

    func csrfToken(for session: String) -> String {
        if let token = tokens[session] { return token }
        let token = mac("csrf:", session)
        tokens[session] = token
        return token
    }

    func checkCSRF(_ token: String?, session: String) -> Bool {
        guard let token else { return false }
        return constantTimeEqual(csrfToken(for: session), token)
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

/// Compares two secrets in time that does not depend on where they first differ.
func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8)
    let b = Array(rhs.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
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
