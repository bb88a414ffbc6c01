import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import SurveyServer

/// Wrong kiosk PINs and preview tokens slow their sender down and lock nobody out; a flood of
/// new keys never resets a count still inside its window.
@Suite("Staff secrets and attempt limits")
struct StaffSecretTests {
    static let pin = KioskTests.pin

    static func kioskBehindProxy(clock: TestClock) async throws -> some ApplicationProtocol {
        try await makeApplication(clock: { clock.now }) { configuration in
            configuration.kiosk = KioskSettings(pin: pin)
            configuration.trustedProxies = try! TrustedProxies(["127.0.0.1", "::1"])
        }
    }

    /// A browser behind the test's proxy, as `address`.
    static func browser(_ client: any TestClientProtocol, from address: String) -> KioskBrowser {
        var browser = KioskBrowser(client)
        browser.headers[.init("X-Forwarded-For")!] = address
        return browser
    }

    @Test("Fifty wrong PINs from ten addresses do not refuse the right PIN from another")
    func othersFailuresRefuseNobody() async throws {
        let app = try await Self.kioskBehindProxy(clock: TestClock())
        try await app.test(.live) { client in
            for address in 1...10 {
                var guesser = Self.browser(client, from: "203.0.113.\(address)")
                try await guesser.get("/kiosk/wellbeing-check")
                for _ in 0..<5 {
                    #expect(try await guesser.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]).status == .unprocessableContent)
                }
            }
            var staff = Self.browser(client, from: "198.51.100.7")
            let right = try await staff.setUp("wellbeing-check")
            #expect(right.status == .seeOther)
            #expect(staff.cookies["survey_kiosk"] != nil)
        }
    }

    @Test("A client's own wrong PINs make it wait, and after the wait the right PIN gets in")
    func ownFailuresSlowDown() async throws {
        let clock = TestClock()
        let app = try await Self.kioskBehindProxy(clock: clock)
        try await app.test(.live) { client in
            var staff = Self.browser(client, from: "203.0.113.50")
            try await staff.get("/kiosk/wellbeing-check")
            for _ in 0..<5 {
                #expect(try await staff.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]).status == .unprocessableContent)
            }
            let early = try await staff.post("/kiosk/wellbeing-check/setup", [("pin", Self.pin)])
            #expect(early.status == .tooManyRequests)
            #expect(staff.lastPage.contains("Wait a minute"))
            let wait = try #require(early.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(wait))
            clock.advance(seconds: Double(wait))
            let right = try await staff.post("/kiosk/wellbeing-check/setup", [("pin", Self.pin)])
            #expect(right.status == .seeOther)
            #expect(staff.cookies["survey_kiosk"] != nil)
        }
    }

    @Test("Refused PINs, wrong or too early, are counted for /metrics")
    func refusedPinsCounted() async throws {
        let token = "metrics-token-0123456789"
        let app = try await makeApplication(configure: { configuration in
            configuration.kiosk = KioskSettings(pin: Self.pin)
            configuration.metricsToken = token
        })
        try await app.test(.router) { client in
            var staff = KioskBrowser(client)
            try await staff.get("/kiosk/wellbeing-check")
            for _ in 0..<7 { _ = try await staff.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]) }
            let metrics = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(String(buffer: metrics.body).contains("survey_kiosk_pins_refused_total 7"))
        }
    }

    @Test("A kiosk signs out with the right PIN whatever wrong PINs its own address sent")
    func kioskSignsOutBehindItsAddress() async throws {
        let app = try await Self.kioskBehindProxy(clock: TestClock())
        try await app.test(.live) { client in
            var tablet = Self.browser(client, from: "192.0.2.10")
            #expect(try await tablet.setUp("wellbeing-check").status == .seeOther)
            // Someone behind the clinic's one address types wrong PINs on another device.
            var other = Self.browser(client, from: "192.0.2.10")
            try await other.get("/kiosk/wellbeing-check")
            for _ in 0..<8 { _ = try await other.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]) }
            #expect(other.lastPage.contains("Too many wrong PINs"))
            try await tablet.get("/kiosk/wellbeing-check/signout")
            let signedOut = try await tablet.post("/kiosk/wellbeing-check/signout", [("pin", Self.pin)])
            #expect(signedOut.status == .ok)
            #expect(tablet.cookies["survey_kiosk"] == nil)
        }
    }

    @Test("IPv6 clients count by their /64: a new address in the same /64 is still slowed down")
    func ipv6ByPrefix() async throws {
        let app = try await Self.kioskBehindProxy(clock: TestClock())
        try await app.test(.live) { client in
            for host in 1...5 {
                var guesser = Self.browser(client, from: "2001:db8:1:2::\(host)")
                try await guesser.get("/kiosk/wellbeing-check")
                #expect(try await guesser.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]).status == .unprocessableContent)
            }
            var sameNetwork = Self.browser(client, from: "2001:db8:1:2:ffff::99")
            try await sameNetwork.get("/kiosk/wellbeing-check")
            #expect(try await sameNetwork.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]).status == .tooManyRequests)
            var otherNetwork = Self.browser(client, from: "2001:db8:1:3::1")
            try await otherNetwork.get("/kiosk/wellbeing-check")
            #expect(try await otherNetwork.post("/kiosk/wellbeing-check/setup", [("pin", "999999")]).status == .unprocessableContent)
        }
        #expect(TrustedProxies.limitKey("2001:DB8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(TrustedProxies.limitKey("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(TrustedProxies.limitKey("192.0.2.1") == "192.0.2.1")
    }

    @Test("Wrong preview tokens from many addresses do not refuse the right token from another")
    func previewTokenNotLockedByOthers() async throws {
        let app = try await makeApplication(configure: { configuration in
            configuration.previewToken = PreviewTests.token
            configuration.trustedProxies = try! TrustedProxies(["127.0.0.1", "::1"])
        })
        try await app.test(.live) { client in
            for address in 1...10 {
                var guesser = Self.browser(client, from: "203.0.113.\(address)")
                try await guesser.get("/preview/sign-in")
                for _ in 0..<5 { _ = try await guesser.post("/preview/sign-in", [("token", "wrong-token")]) }
            }
            var researcher = Self.browser(client, from: "198.51.100.8")
            try await researcher.get("/preview/sign-in")
            let right = try await researcher.post("/preview/sign-in", [("token", PreviewTests.token)])
            #expect(right.status == .seeOther)
            #expect(right.headers[.location] == "/preview")
        }
    }

    @Test("Under a flood of wrong tries from everywhere, each new client keeps one try at once, then waits")
    func alarmSlowsEveryone() async {
        let guardian = SecretGuard()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let logger = Logger(label: "test")
        for index in 0..<60 {
            _ = await guardian.reserve("client-\(index / 5)", now: now, what: "PINs", logger: logger)
        }
        #expect(await guardian.alarmed)
        #expect(await guardian.reserve("newcomer", now: now, what: "PINs", logger: logger) == .check(reservedAt: now))
        #expect(await guardian.reserve("newcomer", now: now, what: "PINs", logger: logger) == .wait(seconds: 1))
        // The right secret gives its place back.
        await guardian.release("newcomer", reservedAt: now)
        let later = now.addingTimeInterval(16 * 60)
        #expect(await guardian.reserve("client-0", now: later, what: "PINs", logger: logger) == .check(reservedAt: later))
        #expect(await !guardian.alarmed)
    }

    @Test("A flood of 10,050 new keys does not reset a key that is still locked")
    func floodKeepsLocks() async {
        let limiter = AttemptLimiter(limit: 5, window: 15 * 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for _ in 0..<5 { #expect(await limiter.reserve("ABCD", now: start) != nil) }
        #expect(await limiter.reserve("ABCD", now: start) == nil)
        for index in 0..<10_050 {
            _ = await limiter.reserve("guess-\(index)", now: start.addingTimeInterval(Double(index) / 100))
        }
        let later = start.addingTimeInterval(120)
        #expect(await limiter.reserve("ABCD", now: later) == nil)
        #expect(await !limiter.allows("ABCD", now: later))
        // New keys share the overflow key while the table is full, so they are limited too.
        #expect(await limiter.reserve("one-more", now: later) == nil)
        // Once the window has passed, the table makes room again.
        let afterWindow = start.addingTimeInterval(15 * 60 + 200)
        #expect(await limiter.reserve("ABCD", now: afterWindow) != nil)
    }
}
