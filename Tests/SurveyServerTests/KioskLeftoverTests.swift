import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyStorage
import Testing
@testable import SurveyServer

/// What a kiosk leaves behind once a turn or a device is over: the server ends it, whatever
/// cookie is replayed or copied, and whether or not another request ever comes.
@Suite("Kiosk turns and devices that are over")
struct KioskLeftoverTests {
    static func kiosk(store: any RunStore, clock: TestClock) async throws -> some ApplicationProtocol {
        try await makeApplication(store: store, clock: { clock.now }) { configuration in
            var kiosk = KioskSettings(pin: KioskTests.pin)
            kiosk.idleAfter = 60
            kiosk.grace = 20
            kiosk.sweepEvery = 0.05
            configuration.kiosk = kiosk
        }
    }

    /// Waits up to five seconds for `condition`, for the server's own sweep.
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("A turn abandoned with no later request is ended by the server once its deadline passes")
    func abandonedTurnIsSwept() async throws {
        let store = MemoryRunStore()
        let clock = TestClock()
        let app = try await Self.kiosk(store: store, clock: clock)
        try await app.test(.live) { client in
            var browser = KioskBrowser(client)
            let session = try await browser.turnWithAnAnswer(mood: "2")
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") != nil)
            // Within the deadline the sweep leaves it.
            clock.advance(seconds: 70)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") != nil)
            // Past it, with nobody touching the tablet, the run is discarded.
            clock.advance(seconds: 11)
            let ended = try await Self.eventually { try await store.activeRecord(session: session, survey: "wellbeing-check") == nil }
            #expect(ended)
            // The turn's cookie, still in the browser, starts nothing: the start screen comes back.
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("button--start"))
        }
    }

    @Test("A turn's cookie replayed after its end page shows neither the code nor the run")
    func replayedTurnShowsNothing() async throws {
        let store = MemoryRunStore()
        let app = try await Self.kiosk(store: store, clock: TestClock())
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let session = try await browser.turnWithAnAnswer(mood: "3")
            let save = try await browser.post("/kiosk/wellbeing-check", [("_action", "save")])
            #expect(save.headers[.location] == "/kiosk/wellbeing-check/saved")
            var copy = browser
            try await browser.get("/kiosk/wellbeing-check/saved")
            #expect(browser.lastPage.contains("<p class=\"resume-code\">"))
            let replayed = try await copy.get("/kiosk/wellbeing-check/saved")
            #expect(replayed.status == .seeOther)
            #expect(!copy.lastPage.contains("resume-code"))
            try await copy.get("/kiosk/wellbeing-check")
            #expect(copy.lastPage.contains("button--start"))
            // The run no longer belongs to the turn's session, for any replica, and is still saved.
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") == nil)
            let saved = try await store.records(matching: RunQuery(survey: "wellbeing-check", limit: 10))
            #expect(saved.count == 1)
            #expect(saved.first?.savedAt != nil)
        }
    }

    @Test("A copied device cookie starts no turn once staff sign the device out, on this server and on another")
    func copiedDeviceCookieIsRevoked() async throws {
        let store = MemoryRunStore()
        let clock = TestClock()
        let first = try await Self.kiosk(store: store, clock: clock)
        let second = try await Self.kiosk(store: store, clock: clock)
        try await first.test(.live) { client in
            try await second.test(.live) { otherClient in
                var tablet = KioskBrowser(client)
                #expect(try await tablet.setUp("wellbeing-check").status == .seeOther)
                var copy = tablet
                var copyElsewhere = KioskBrowser(otherClient)
                copyElsewhere.cookies = tablet.cookies
                try await copyElsewhere.get("/kiosk/wellbeing-check")
                #expect(copyElsewhere.lastPage.contains("button--start"), "the other replica takes the device before the sign-out")
                try await tablet.get("/kiosk/wellbeing-check/signout")
                #expect(try await tablet.post("/kiosk/wellbeing-check/signout", [("pin", KioskTests.pin)]).status == .ok)
                try await copy.get("/kiosk/wellbeing-check")
                #expect(copy.lastPage.contains("id=\"pin\""))
                #expect(!copy.lastPage.contains("button--start"))
                let refused = try await Self.eventually {
                    try await copyElsewhere.get("/kiosk/wellbeing-check")
                    return copyElsewhere.lastPage.contains("id=\"pin\"")
                }
                #expect(refused, "the other replica refuses the copied cookie once it has read the sign-out")
            }
        }
    }
}
