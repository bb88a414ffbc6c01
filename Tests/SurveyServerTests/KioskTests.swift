import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

/// A kiosk's browser: every cookie it is given, by name, and the last page.
struct KioskBrowser {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    var lastPage = ""
    var headers: HTTPFields = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    @discardableResult
    mutating func get(_ uri: String) async throws -> TestResponse {
        try await send(uri, method: .get, body: nil)
    }

    @discardableResult
    mutating func post(_ uri: String, _ pairs: [(String, String)]) async throws -> TestResponse {
        var all = pairs
        for name in ["_csrf", "_visit", "_page"] where !pairs.contains(where: { $0.0 == name }) {
            if let value = Participant.hidden(name, in: lastPage) { all.append((name, value)) }
        }
        return try await send(uri, method: .post, body: all.map { Participant.encode($0.0) + "=" + Participant.encode($0.1) }.joined(separator: "&"))
    }

    /// Posts and follows a redirect, as a browser does.
    @discardableResult
    mutating func submit(_ uri: String, _ pairs: [(String, String)]) async throws -> TestResponse {
        let response = try await post(uri, pairs)
        if response.status == .seeOther, let location = response.headers[.location] { return try await get(location) }
        return response
    }

    private mutating func send(_ uri: String, method: HTTPRequest.Method, body: String?) async throws -> TestResponse {
        var fields = headers
        if !cookies.isEmpty { fields[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if body != nil { fields[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await client.execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        lastPage = String(buffer: response.body)
        return response
    }

    /// The session of the participant's turn, from its cookie.
    var turnSession: String? { cookies["survey_kiosk_run"]?.split(separator: ".").first.map(String.init) }

    /// Opens the kiosk and enters the PIN.
    mutating func setUp(_ survey: String, pin: String = KioskTests.pin) async throws -> TestResponse {
        try await get("/kiosk/\(survey)")
        return try await post("/kiosk/\(survey)/setup", [("pin", pin)])
    }

    /// Makes the device a kiosk, presses Start and answers wellbeing-check's first question, so
    /// the turn's run is stored; returns the turn's session.
    mutating func turnWithAnAnswer(mood: String = "3") async throws -> String {
        try await setUp("wellbeing-check")
        try await start("wellbeing-check")
        let session = try #require(turnSession)
        try await submit("/kiosk/wellbeing-check", [("_action", "next")])
        try await submit("/kiosk/wellbeing-check", [("mood", mood)])
        return session
    }

    /// Presses Start (in `language`) on the start screen.
    mutating func start(_ survey: String, language: String = "en") async throws {
        try await get("/kiosk/\(survey)")
        try await submit("/kiosk/\(survey)/start", [("lang", language)])
    }
}

@Suite("A clinic's kiosk")
struct KioskTests {
    static let pin = "246810"

    static func kioskApplication(store: MemoryRunStore = MemoryRunStore(), clock: TestClock = TestClock(), surveys: String = Repository.path("Examples"))
        async throws -> some ApplicationProtocol {
        try await makeApplication(surveys: surveys, store: store, clock: { clock.now }) { configuration in
            var kiosk = KioskSettings(pin: pin)
            kiosk.idleAfter = 60
            kiosk.grace = 20
            kiosk.returnAfter = 9
            configuration.kiosk = kiosk
        }
    }

    @Test("Staff make a device a kiosk with the PIN; a wrong PIN is refused beside the field")
    func setUpWithPIN() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let first = try await browser.get("/kiosk/wellbeing-check")
            #expect(first.status == .ok)
            #expect(browser.lastPage.contains("id=\"pin\""))
            let wrong = try await browser.post("/kiosk/wellbeing-check/setup", [("pin", "111111")])
            #expect(wrong.status == .unprocessableContent)
            #expect(browser.lastPage.contains("The PIN is not right"))
            #expect(browser.cookies["survey_kiosk"] == nil)
            let right = try await browser.post("/kiosk/wellbeing-check/setup", [("pin", Self.pin)])
            #expect(right.status == .seeOther)
            #expect(browser.cookies["survey_kiosk"] != nil)
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("button--start"))
            #expect(browser.lastPage.contains("/kiosk/wellbeing-check/signout"))
            // The device is a kiosk for this survey only.
            try await browser.get("/kiosk/fever-triage")
            #expect(browser.lastPage.contains("id=\"pin\""))
        }
    }

    @Test("Wrong PINs are limited per client: the sixth try is refused even when right")
    func pinRateLimit() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/kiosk/wellbeing-check")
            for _ in 0..<5 {
                let wrong = try await browser.post("/kiosk/wellbeing-check/setup", [("pin", "999999")])
                #expect(wrong.status == .unprocessableContent)
            }
            let refused = try await browser.post("/kiosk/wellbeing-check/setup", [("pin", Self.pin)])
            #expect(refused.status == .tooManyRequests)
            #expect(browser.lastPage.contains("Too many wrong PINs"))
            #expect(browser.cookies["survey_kiosk"] == nil)
        }
    }

    @Test("Each Start begins a fresh run with its own session: the next participant sees nothing of the last")
    func freshRunPerStart() async throws {
        let store = MemoryRunStore()
        let app = try await Self.kioskApplication(store: store)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("wellbeing-check")
            try await browser.start("wellbeing-check")
            let first = try #require(browser.turnSession)
            try await browser.submit("/kiosk/wellbeing-check", [("_action", "next")])
            try await browser.submit("/kiosk/wellbeing-check", [("mood", "2")])
            try await browser.submit("/kiosk/wellbeing-check", [("sleep.hours", "6"), ("sleep.minutes", "15")])
            try await browser.submit("/kiosk/wellbeing-check", [("activities", "walk")])
            try await browser.submit("/kiosk/wellbeing-check", [("comments", "Patient one private words")])
            let done = try await browser.submit("/kiosk/wellbeing-check", [("_action", "next")])
            #expect(done.status == .ok)
            #expect(browser.lastPage.contains("http-equiv=\"refresh\" content=\"9; url=/kiosk/wellbeing-check\""))
            #expect(browser.cookies["survey_kiosk_run"] == nil, "the end page ends the turn")
            // The run is stored as completed, and no longer belongs to the turn's session.
            let completed = try await store.records(matching: RunQuery(survey: "wellbeing-check", status: "completed", limit: 10))
            #expect(completed.count == 1)
            #expect(try await store.lastFinishedRecord(session: first, survey: "wellbeing-check") == nil)
            // The done page, Back, and every page of the finished turn now answer with the start screen.
            for path in ["/kiosk/wellbeing-check/done", "/kiosk/wellbeing-check/change/1", "/kiosk/wellbeing-check/cancel"] {
                let again = try await browser.get(path)
                #expect(again.status == .seeOther)
                #expect(again.headers[.location] == "/kiosk/wellbeing-check")
            }
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("button--start"))
            // The second participant's Start: a new session, and an empty first page.
            try await browser.start("wellbeing-check")
            let second = try #require(browser.turnSession)
            #expect(second != first)
            try await browser.submit("/kiosk/wellbeing-check", [("_action", "next")])
            #expect(!browser.lastPage.contains("checked=\"checked\""))
            #expect(!browser.lastPage.contains("Patient one"))
            // A kiosk run gives no result to the browser.
            let result = try await browser.get("/surveys/wellbeing-check/result.json")
            #expect(result.status == .notFound)
        }
    }

    @Test("Kiosk pages: no-store, autocomplete off (an email field too), a refresh to the idle page, no links out")
    func kioskPageMarkup() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("every-format")
            try await browser.start("every-format")
            var seenEmail = false
            for (_, answers) in try EveryFormatTests.script("every-format") {
                let page = browser.lastPage
                #expect(page.contains("<body class=\"kiosk\">"))
                #expect(page.contains("content=\"60; url=/kiosk/every-format/idle\"") || page.contains("url=/kiosk/every-format\""))
                #expect(!page.contains("href=\"http"), "no link leaves the survey")
                #expect(!page.contains("href=\"/surveys"), "no link to the participant's pages or the list")
                for form in page.components(separatedBy: "<form").dropFirst() {
                    #expect(form.prefix(while: { $0 != ">" }).contains("autocomplete=\"off\""))
                }
                if page.contains("type=\"email\"") {
                    seenEmail = true
                    #expect(!page.contains("autocomplete=\"email\""))
                }
                guard page.contains("name=\"_action\" value=\"next\"") else { break }
                let pairs = answers == .string("$skip") ? [("_action", "skip")] : EveryFormatTests.pairs(answers)
                let response = try await browser.post("/kiosk/every-format", pairs)
                #expect(response.status == .seeOther)
                #expect(response.headers[.cacheControl] == "no-store")
                try await browser.get(response.headers[.location] ?? "/kiosk/every-format")
            }
            #expect(seenEmail)
        }
    }

    @Test("The server ends a turn idle past its deadline (discard): the start screen, and the run deleted")
    func serverDeadlineDiscards() async throws {
        let store = MemoryRunStore()
        let clock = TestClock()
        let app = try await Self.kioskApplication(store: store, clock: clock)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let session = try await browser.turnWithAnAnswer(mood: "2")
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") != nil)
            // Within the deadline, the idle page does not move it; past it, any request ends the turn.
            clock.advance(seconds: 70)
            let idle = try await browser.get("/kiosk/wellbeing-check/idle")
            #expect(idle.status == .ok)
            #expect(browser.lastPage.contains("Are you still there?"))
            #expect(browser.lastPage.contains("url=/kiosk/wellbeing-check/timeout"))
            let early = try await browser.get("/kiosk/wellbeing-check/timeout")
            #expect(early.status == .ok, "the timeout page waits for the deadline")
            clock.advance(seconds: 11)
            let late = try await browser.post("/kiosk/wellbeing-check", [("sleep.hours", "7"), ("sleep.minutes", "0")])
            #expect(late.status == .seeOther)
            #expect(late.headers[.location] == "/kiosk/wellbeing-check")
            #expect(browser.cookies["survey_kiosk_run"] == nil)
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") == nil)
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("button--start"))
        }
    }

    @Test("A request within the deadline keeps the turn going; the Continue of the idle page counts")
    func activityRenewsDeadline() async throws {
        let clock = TestClock()
        let app = try await Self.kioskApplication(clock: clock)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("wellbeing-check")
            try await browser.start("wellbeing-check")
            for _ in 0..<3 {
                clock.advance(seconds: 70)
                try await browser.get("/kiosk/wellbeing-check/idle")
                try await browser.get("/kiosk/wellbeing-check")
                #expect(browser.lastPage.contains("name=\"_action\" value=\"next\""))
            }
        }
    }

    @Test("With kioskIdle \"save\", a turn past its deadline is kept as saved, its code shown to nobody")
    func serverDeadlineSaves() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-save-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var survey = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.path("Examples/wellbeing-check.json"))))
            as! [String: Any]
        survey["kioskIdle"] = "save"
        try JSONSerialization.data(withJSONObject: survey).write(to: folder.appendingPathComponent("wellbeing-check.json"))
        let store = MemoryRunStore()
        let clock = TestClock()
        let app = try await Self.kioskApplication(store: store, clock: clock, surveys: folder.path)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let session = try await browser.turnWithAnAnswer(mood: "5")
            clock.advance(seconds: 81)
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("button--start"))
            let record = try #require(try await store.activeRecord(session: session, survey: "wellbeing-check"))
            #expect(record.savedAt != nil)
            #expect(record.resume == nil)
            #expect(record.status == "saved")
        }
    }

    @Test("Saving on a kiosk shows the code only, no link, and returns to the start screen")
    func savedShowsCodeOnly() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("wellbeing-check")
            try await browser.start("wellbeing-check")
            try await browser.submit("/kiosk/wellbeing-check", [("_action", "next")])
            try await browser.submit("/kiosk/wellbeing-check", [("mood", "3")])
            let saved = try await browser.submit("/kiosk/wellbeing-check", [("_action", "save")])
            #expect(saved.status == .ok)
            #expect(browser.lastPage.contains("<p class=\"resume-code\">"))
            #expect(!browser.lastPage.contains("/resume/"), "no resume link")
            #expect(!browser.lastPage.contains("href=\"http"))
            #expect(browser.lastPage.contains("content=\"9; url=/kiosk/wellbeing-check\""))
            #expect(browser.cookies["survey_kiosk_run"] == nil)
            let again = try await browser.get("/kiosk/wellbeing-check/saved")
            #expect(again.status == .seeOther)
        }
    }

    @Test("Cancel and discard on a kiosk: the answers deleted, then the start screen")
    func discardOnKiosk() async throws {
        let store = MemoryRunStore()
        let app = try await Self.kioskApplication(store: store)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let session = try await browser.turnWithAnAnswer(mood: "3")
            try await browser.submit("/kiosk/wellbeing-check", [("_action", "cancel")])
            #expect(browser.lastPage.contains("value=\"discard\""))
            // Left on the cancel question, the tablet goes to "Are you still there?" as a step does.
            #expect(browser.lastPage.contains("content=\"60; url=/kiosk/wellbeing-check/idle\""))
            try await browser.submit("/kiosk/wellbeing-check", [("_action", "discard")])
            #expect(browser.lastPage.contains("url=/kiosk/wellbeing-check\""))
            #expect(browser.cookies["survey_kiosk_run"] == nil)
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") == nil)
        }
    }

    @Test("Staff stop the kiosk with the PIN; the device then asks for the PIN again")
    func signOut() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("wellbeing-check")
            try await browser.get("/kiosk/wellbeing-check/signout")
            let wrong = try await browser.post("/kiosk/wellbeing-check/signout", [("pin", "000000")])
            #expect(wrong.status == .unprocessableContent)
            #expect(browser.cookies["survey_kiosk"] != nil)
            let right = try await browser.post("/kiosk/wellbeing-check/signout", [("pin", Self.pin)])
            #expect(right.status == .ok)
            #expect(browser.cookies["survey_kiosk"] == nil)
            try await browser.get("/kiosk/wellbeing-check")
            #expect(browser.lastPage.contains("id=\"pin\""))
        }
    }

    @Test("Without a PIN there is no kiosk")
    func offWithoutPIN() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/kiosk/wellbeing-check", method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test("The start screen offers each of the survey's languages, and the turn keeps the one chosen")
    func languageChosenAtStart() async throws {
        let app = try await Self.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("fever-triage")
            try await browser.get("/kiosk/fever-triage")
            #expect(browser.lastPage.contains("lang=\"es\" dir=\"ltr\"><span class=\"button__language\">Español</span> Empezar"))
            try await browser.submit("/kiosk/fever-triage/start", [("lang", "es")])
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            try await browser.submit("/kiosk/fever-triage", [("_action", "next")])
            #expect(browser.lastPage.contains("<html lang=\"es\""))
        }
    }
}
