import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let seconds = Mutex<Double>(1_800_000_000)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(days: Double) { seconds.withLock { $0 += days * 86_400 } }
    func advance(seconds amount: Double) { seconds.withLock { $0 += amount } }
}

@Suite("Save for later and resume")
struct ResumeTests {
    /// Answers the first two steps of wellbeing-check and presses "Save for later".
    static func saveMidway(_ browser: inout Participant) async throws -> (code: String, link: String) {
        try await browser.get("/surveys/wellbeing-check")
        try await browser.submit("wellbeing-check", [("_action", "next")])
        try await browser.submit("wellbeing-check", [("mood", "4")])
        let saved = try await browser.submit("wellbeing-check", [("_action", "save")])
        #expect(saved.status == .ok)
        let page = browser.lastPage
        let code = try #require(page.range(of: "<p class=\"resume-code\">").map { page[$0.upperBound...].prefix(9) }.map(String.init))
        let link = try #require(page.range(of: "/resume/").map { start -> String in
            let rest = page[start.lowerBound...]
            return String(rest[..<rest.firstIndex(of: "\"")!])
        })
        return (code, link)
    }

    @Test("A saved run resumes on another device with its code, at the step where it stopped, with Back working")
    func resumeWithCode() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var first = Participant(client)
            let (code, _) = try await Self.saveMidway(&first)
            #expect(code.count == 9)
            var second = Participant(client)
            try await second.get("/resume")
            let typed = code.lowercased().replacingOccurrences(of: " ", with: "-")
            let resumed = try await second.post("/resume", [("code", typed)])
            #expect(resumed.status == .seeOther)
            #expect(resumed.headers[.location] == "/surveys/wellbeing-check")
            try await second.get("/surveys/wellbeing-check")
            #expect(second.heading == "How long did you usually sleep each night?")
            try await second.submit("wellbeing-check", [("_action", "back")])
            #expect(second.heading == "Overall, how has your mood been?")
            #expect(second.lastPage.contains("value=\"4\" checked=\"checked\""))
            // The code is used up.
            var third = Participant(client)
            try await third.get("/resume")
            let again = try await third.post("/resume", [("code", code)])
            #expect(again.status == .unprocessableContent)
        }
    }

    @Test("The resume link works in a new browser")
    func resumeWithLink() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var first = Participant(client)
            let (_, link) = try await Self.saveMidway(&first)
            var second = Participant(client)
            let page = try await second.get(link)
            #expect(page.status == .ok)
            #expect(page.headers[.setCookie] != nil)
            let response = try await second.post(link, [])
            #expect(response.status == .seeOther)
            try await second.get("/surveys/wellbeing-check")
            #expect(second.heading == "How long did you usually sleep each night?")
        }
    }

    @Test("With a public URL set, the resume link points there, not at the request's host")
    func publicURLLinks() async throws {
        let app = try await makeApplication(publicURL: "https://survey.example.org/")
        try await app.test(.router) { client in
            var browser = Participant(client)
            _ = try await Self.saveMidway(&browser)
            #expect(browser.lastPage.contains("href=\"https://survey.example.org/resume/"))
        }
    }

    @Test("An expired code and link are refused")
    func expiredCode() async throws {
        let clock = TestClock()
        let app = try await makeApplication(clock: { clock.now })
        try await app.test(.router) { client in
            var first = Participant(client)
            let (code, link) = try await Self.saveMidway(&first)
            clock.advance(days: 31)
            var second = Participant(client)
            try await second.get("/resume")
            let refused = try await second.post("/resume", [("code", code)])
            #expect(refused.status == .unprocessableContent)
            #expect(second.lastPage.contains("This code has expired"))
            let viaLink = try await second.claim(link)
            #expect(viaLink.status == .gone)
        }
    }

    @Test("Wrong codes are refused with a message, and guessing is stopped after five tries")
    func wrongCodesAreRateLimited() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/resume")
            let malformed = try await browser.post("/resume", [("code", "12")])
            #expect(malformed.status == .unprocessableContent)
            #expect(browser.lastPage.contains("Enter the 8-character code you were given"))
            #expect(browser.lastPage.contains("<title>Error: "))
            for _ in 0..<4 {
                let wrong = try await browser.post("/resume", [("code", "ABCD2345")])
                #expect(wrong.status == .unprocessableContent)
            }
            let blocked = try await browser.post("/resume", [("code", "ABCD2345")])
            #expect(blocked.status == .tooManyRequests)
        }
    }

    @Test("Returning in the same browser after saving carries on, and the code stops working")
    func sameBrowserCarriesOn() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            let (code, _) = try await Self.saveMidway(&browser)
            try await browser.get("/surveys/wellbeing-check")
            #expect(browser.heading == "How long did you usually sleep each night?")
            var other = Participant(client)
            try await other.get("/resume")
            #expect(try await other.post("/resume", [("code", code)]).status == .unprocessableContent)
        }
    }
}
