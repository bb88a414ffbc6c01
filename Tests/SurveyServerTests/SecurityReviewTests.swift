import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

/// The findings of a security review, each a behaviour that failed before its fix.
@Suite("Security review findings")
struct SecurityReviewTests {
    static func runCount(_ store: MemoryRunStore) async -> Int {
        await store.records(matching: RunQuery(limit: 1000)).count
    }

    // MARK: Runs are created by the first post, not by a GET

    @Test("Opening a survey stores nothing; the first post starts the run, dated from when its page was shown")
    func getsStoreNothing() async throws {
        let store = MemoryRunStore()
        let clock = TestClock()
        let app = try await makeApplication(store: store, clock: { clock.now })
        try await app.test(.router) { client in
            for _ in 0..<50 {
                let response = try await client.execute(uri: "/surveys/fever-triage", method: .get)
                #expect(response.status == .ok)
            }
            #expect(await Self.runCount(store) == 0)
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let shownAt = clock.now
            clock.advance(days: 0.001)
            try await browser.submit("fever-triage", [("_action", "next")])
            let runs = await store.records(matching: RunQuery())
            #expect(runs.count == 1)
            #expect(runs.first?.run.startDate == shownAt)
            #expect(runs.first?.run.visits.first?.startDate == shownAt)
            #expect(browser.heading == "Do you have a fever?")
        }
    }

    @Test("A first page posted again after the run began, from another tab, shows where the run stands")
    func staleFirstPage() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let firstPage = browser.lastPage
            try await browser.submit("fever-triage", [("_action", "next")])
            browser.lastPage = firstPage
            let again = try await browser.post("/surveys/fever-triage", [("_action", "next")])
            #expect(again.status == .seeOther)
            #expect(await Self.runCount(store) == 1)
        }
    }

    @Test("A first page posted twice at once (a double click) starts one run, not two")
    func doubleClickOnFirstPage() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let snapshot = browser
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        var copy = snapshot
                        return try await copy.post("/surveys/fever-triage", [("_action", "next")]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses == [.seeOther, .seeOther])
            #expect(await Self.runCount(store) == 1)
        }
    }

    @Test("One client may start only so many runs in an hour")
    func runStartsAreLimited() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store, configure: { $0.runsPerClientPerHour = 3 })
        try await app.test(.router) { client in
            for attempt in 0..<4 {
                var browser = Participant(client)
                try await browser.get("/surveys/fever-triage")
                let response = try await browser.post("/surveys/fever-triage", [("_action", "next")])
                #expect(response.status == (attempt < 3 ? .seeOther : .tooManyRequests))
            }
            #expect(await Self.runCount(store) == 3)
        }
    }

    // MARK: Single-use links

    @Test("Opening a resume link any number of times spends nothing; its Continue button claims the run")
    func linksSurviveScanners() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var first = Participant(client)
            let (_, link) = try await ResumeTests.saveMidway(&first)
            for _ in 0..<3 {
                var scanner = Participant(client)
                #expect(try await scanner.get(link).status == .ok)
            }
            var participant = Participant(client)
            #expect(try await participant.claim(link).status == .seeOther)
            try await participant.get("/surveys/wellbeing-check")
            #expect(participant.heading == "How long did you usually sleep each night?")
        }
    }

    @Test("A cross-site post to a link, without the page's token, is refused and claims nothing")
    func claimNeedsToken() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var first = Participant(client)
            let (_, link) = try await ResumeTests.saveMidway(&first)
            var attacker = Participant(client)
            try await attacker.get("/")
            let forged = try await attacker.post(link, [("_csrf", "t1800000000.forged")], csrf: false)
            #expect(forged.status == .forbidden)
            var participant = Participant(client)
            #expect(try await participant.claim(link).status == .seeOther)
        }
    }

    // MARK: The resume lockout

    @Test("Link GETs from another site's images do not lock a participant out of their code")
    func imagesCannotSpendTheLimit() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var owner = Participant(client)
            let (code, _) = try await ResumeTests.saveMidway(&owner)
            var victim = Participant(client)
            for index in 0..<10 { #expect(try await victim.get("/resume/bogus\(index)").status == .ok) }
            try await victim.get("/resume")
            #expect(try await victim.post("/resume", [("code", code)]).status == .seeOther)
        }
    }

    @Test("A valid link works even for a client past its limit of failures")
    func validLinkBypassesLock() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var owner = Participant(client)
            let (_, link) = try await ResumeTests.saveMidway(&owner)
            var guesser = Participant(client)
            for index in 0..<5 { #expect(try await guesser.claim("/resume/bogus\(index)").status == .notFound) }
            #expect(try await guesser.claim("/resume/bogus-more").status == .tooManyRequests)
            #expect(try await guesser.claim(link).status == .seeOther)
        }
    }

    @Test("Behind a trusted proxy each client has its own count; without trust, X-Forwarded-For is ignored")
    func proxiedClientsAreCountedApart() async throws {
        for trusted in [true, false] {
            let app = try await makeApplication(configure: { configuration in
                if trusted { configuration.trustedProxies = try! TrustedProxies(["127.0.0.1", "::1"]) }
            })
            try await app.test(.live) { client in
                var owner = Participant(client)
                owner.extraHeaders = [.init("X-Forwarded-For")!: "198.51.100.9"]
                let (code, _) = try await ResumeTests.saveMidway(&owner)
                var guesser = Participant(client)
                guesser.extraHeaders = [.init("X-Forwarded-For")!: "203.0.113.1"]
                try await guesser.get("/resume")
                for _ in 0..<5 { _ = try await guesser.post("/resume", [("code", "ZZZZ 2345")]) }
                #expect(try await guesser.post("/resume", [("code", "ZZZZ 2345")]).status == .tooManyRequests)
                var other = Participant(client)
                other.extraHeaders = [.init("X-Forwarded-For")!: "203.0.113.2"]
                try await other.get("/resume")
                let resumed = try await other.post("/resume", [("code", code)])
                #expect(resumed.status == (trusted ? .seeOther : .tooManyRequests), "trusted: \(trusted)")
            }
        }
    }

    @Test("Twenty wrong codes sent at once get five tries, not more")
    func burstGetsFiveTries() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/resume")
            let snapshot = browser
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    let code = "Z" + String(format: "%03d", index).map { ResumeTicket.alphabet[Int(String($0))! + 20] } + "2345"
                    group.addTask {
                        var copy = snapshot
                        return try await copy.post("/resume", [("code", code)]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unprocessableContent }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15)
        }
    }

    @Test("No code gets more than five tries in the window, whoever tries it")
    func triesPerCode() async throws {
        let app = try await makeApplication(configure: { $0.trustedProxies = try! TrustedProxies(["127.0.0.1", "::1"]) })
        try await app.test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<6 {
                var guesser = Participant(client)
                guesser.extraHeaders = [.init("X-Forwarded-For")!: "203.0.113.\(index + 1)"]
                try await guesser.get("/resume")
                statuses.append(try await guesser.post("/resume", [("code", "ABCD 234\(index + 2)")]).status)
            }
            #expect(statuses == Array(repeating: .unprocessableContent, count: 5) + [.tooManyRequests])
        }
    }

    @Test("The table of attempts stays bounded, and forgets keys whose window has passed")
    func limiterIsBounded() async {
        let limiter = AttemptLimiter(limit: 5, window: 60, maximumKeys: 100)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<1_000 { _ = await limiter.reserve("client-\(index)", now: start) }
        // A hundred keys of their own, and the overflow key the others share.
        #expect(await limiter.keyCount <= 101)
        let later = start.addingTimeInterval(120)
        _ = await limiter.reserve("late-0", now: later)
        for index in 1...100 { _ = await limiter.reserve("late-\(index)", now: later) }
        #expect(await limiter.keyCount <= 101)
        #expect(await limiter.allows("client-999", now: later))
        let time = await limiter.reserve("again", now: later)
        await limiter.release("again", reservedAt: try! #require(time))
        #expect(await limiter.allows("again", now: later))
    }

    @Test("The resume form's error summary is markup, escaped once")
    func errorSummaryEscapedOnce() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/resume")
            _ = try await browser.post("/resume", [("code", "<b>1")])
            #expect(browser.lastPage.contains("<div class=\"error-summary\""))
            #expect(!browser.lastPage.contains("&lt;div"))
            #expect(browser.lastPage.contains("value=\"&lt;b&gt;1\""))
        }
    }

    // MARK: API-made runs

    @Test("A run made through the API has no resume code, and its return address is stored normalized")
    func apiRunsHaveNoCode() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            let created = try await client.execute(
                uri: "/api/v1/runs", method: .post, headers: ResearcherAPITests.auth,
                body: ByteBuffer(string: #"{"survey": "fever-triage", "returnURL": "HTTPS://Study.Example.ORG/back?x=1"}"#))
            #expect(created.status == .created)
            let record = try #require(await store.records(matching: RunQuery()).first)
            #expect(record.resume != nil)
            #expect(record.resume?.code == nil)
            #expect(record.returnURL == "https://study.example.org/back?x=1")
        }
    }

    @Test("A return address with a user name, a backslash, white space or control characters is refused",
          arguments: ["http://a\\\\@b.example/", "https://user:pw@b.example/", "https://b.example/\\r\\nSet-Cookie: x=1",
                      "https://b.example/\\u0000", "https://b.example/a b", "javascript:alert(1)", "https:///nohost", "//b.example/"])
    func badReturnURLs(_ url: String) async throws {
        let app = try await makeApplication(apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            let body = #"{"survey": "fever-triage", "returnURL": ""# + url + #""}"#
            let created = try await client.execute(uri: "/api/v1/runs", method: .post, headers: ResearcherAPITests.auth,
                                                   body: ByteBuffer(string: body))
            #expect(created.status == .unprocessableContent, "\(url)")
        }
    }

    // MARK: Sessions

    @Test("An idle session expires: after it, the browser is a new visitor and its old run is not continued")
    func sessionsExpire() async throws {
        let clock = TestClock()
        let app = try await makeApplication(clock: { clock.now }, configure: { $0.sessionLifetime = 3600 })
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            #expect(browser.heading == "Do you have a fever?")
            let oldCookie = browser.cookie
            clock.advance(days: 2.0 / 24)
            let response = try await browser.get("/surveys/fever-triage")
            #expect(response.headers[.setCookie] != nil)
            #expect(browser.cookie != oldCookie)
            #expect(browser.heading == "Check your symptoms")
        }
    }

    @Test("A CSRF token is bound to its run: one run's token does not post to another")
    func csrfBoundToRun() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            let feverToken = try #require(Participant.hidden("_csrf", in: browser.lastPage))
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            let wellbeingToken = try #require(Participant.hidden("_csrf", in: browser.lastPage))
            #expect(feverToken != wellbeingToken)
            let crossed = try await browser.post("/surveys/wellbeing-check", [("_csrf", feverToken), ("mood", "4")])
            #expect(crossed.status == .forbidden)
        }
    }
}
