import Foundation
import Hummingbird

/// A device staff have made a kiosk for one survey, as its signed cookie says.
struct KioskDevice: Sendable {
    /// A random identifier of the device's setup, which the start screen's form token is bound to.
    let device: String
    let survey: String
    let issuedAt: Date
}

/// One participant's turn at a kiosk: its own session, never the device's cookie, with the
/// language chosen at the start screen and the time of its last request, from which the idle
/// deadline runs. The cookie lasts until the browser closes and is signed again with each
/// request; the end pages clear it.
struct KioskRun: Sendable {
    let session: String
    let language: String
    let lastSeen: Date
}

/// The kiosk's two cookies, signed with the same secret as the session cookie.
extension SessionSigner {
    static func kioskDeviceCookieName(secure: Bool) -> String { secure ? "__Host-survey_kiosk" : "survey_kiosk" }
    static func kioskRunCookieName(secure: Bool) -> String { secure ? "__Host-survey_kiosk_run" : "survey_kiosk_run" }
    /// The nonce cookie the PIN form's token is bound to, before the device is a kiosk.
    static func kioskStaffCookieName(secure: Bool) -> String { secure ? "__Host-survey_kiosk_staff" : "survey_kiosk_staff" }

    func kioskDeviceValue(_ device: KioskDevice) -> String {
        let signed = device.device + "." + String(Int(device.issuedAt.timeIntervalSince1970)) + "." + device.survey
        return signed + "." + mac("kiosk-device:", signed)
    }

    /// The device in a cookie value, if its signature holds and it is younger than `lifetime`.
    func kioskDevice(fromCookie value: String, lifetime: TimeInterval, now: Date) -> KioskDevice? {
        guard let dot = value.lastIndex(of: ".") else { return nil }
        let signed = String(value[..<dot])
        guard constantTimeEqual(mac("kiosk-device:", signed), String(value[value.index(after: dot)...])) else { return nil }
        let parts = signed.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let seconds = Int(parts[1]) else { return nil }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now.timeIntervalSince(issuedAt) < lifetime, issuedAt.timeIntervalSince(now) < 300 else { return nil }
        return KioskDevice(device: String(parts[0]), survey: String(parts[2]), issuedAt: issuedAt)
    }

    /// The token of the start screen's form: bound to the device's setup, and so valid as long
    /// as the device is a kiosk, however long the screen has been showing.
    func kioskStartToken(device: KioskDevice) -> String {
        mac("kiosk-start:", device.device)
    }

    func kioskRunValue(_ run: KioskRun) -> String {
        let signed = run.session + "." + String(Int(run.lastSeen.timeIntervalSince1970)) + "." + run.language
        return signed + "." + mac("kiosk-run:", signed)
    }

    /// The run in a cookie value, if its signature holds. Whether it is past its deadline is
    /// for the caller, which ends the run then.
    func kioskRun(fromCookie value: String, now: Date) -> KioskRun? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].utf8.count == 22, let seconds = Int(parts[1]) else { return nil }
        let signed = parts[0...2].joined(separator: ".")
        guard constantTimeEqual(mac("kiosk-run:", signed), String(parts[3])) else { return nil }
        let lastSeen = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard lastSeen.timeIntervalSince(now) < 300 else { return nil }
        return KioskRun(session: String(parts[0]), language: String(parts[2]), lastSeen: lastSeen)
    }
}

extension Request {
    /// A cookie's value, read straight from the Cookie header. Works on the header's UTF-8
    /// bytes in place, in one pass: it runs on every request, and a cookie header is ASCII.
    func cookie(named name: String) -> String? {
        for header in headers[values: .cookie] {
            var header = header
            if let value = header.withUTF8({ Self.cookie(named: name, in: $0) }) { return value }
        }
        return nil
    }

    private static func cookie(named name: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let semicolon = UInt8(ascii: ";"), space = UInt8(ascii: " "), equals = UInt8(ascii: "=")
        var name = name
        return name.withUTF8 { wanted -> String? in
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == space { index += 1 }
                var end = index
                while end < bytes.count, bytes[end] != semicolon { end += 1 }
                if end - index > wanted.count, bytes[index + wanted.count] == equals,
                   memcmp(bytes.baseAddress! + index, wanted.baseAddress!, wanted.count) == 0 {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + wanted.count + 1)..<end]), as: UTF8.self)
                }
                index = end + 1
            }
            return nil
        }
    }
}

extension Response {
    /// Sets an HttpOnly, SameSite=Lax cookie for the whole host; `maxAge` 0 clears it, nil
    /// makes it last until the browser closes.
    mutating func setPlainCookie(_ name: String, _ value: String, maxAge: Int?, secure: Bool) {
        setCookie(Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
    }
}
