import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

@Suite("The participant's flow over HTTP")
struct ParticipantFlowTests {
    @Test("Opening a survey link starts a run, sets a signed cookie and shows the first step with safe headers")
    func openingStartsRun() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            let response = try await browser.get("/surveys/fever-triage")
            #expect(response.status == .ok)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"))
            #expect(response.headers[.cacheControl] == "no-store")
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(browser.heading == "Check your symptoms")
            #expect(browser.lastPage.contains("<form id=\"step-form\" method=\"post\" action=\"/surveys/fever-triage\""))
            #expect(browser.lastPage.contains("Get Started"))
        }
    }

    @Test("Cookies are Secure and __Host- prefixed when a trusted proxy says the request came over HTTPS, and not when anyone else does")
    func secureBehindTrustedProxyOnly() async throws {
        let headers: HTTPFields = [.init("X-Forwarded-Proto")!: "https"]
        let trusting = try await makeApplication(configure: { $0.trustedProxies = try! TrustedProxies(["127.0.0.1"]) })
        try await trusting.test(.live) { client in
            let response = try await client.execute(uri: "/surveys/fever-triage", method: .get, headers: headers)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("__Host-survey_session="))
            #expect(cookie.contains("Secure"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Domain"))
        }
        let untrusting = try await makeApplication(configure: { $0.trustedProxies = try! TrustedProxies(["10.0.0.0/8"]) })
        try await untrusting.test(.live) { client in
            let response = try await client.execute(uri: "/surveys/fever-triage", method: .get, headers: headers)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("survey_session="))
            #expect(!cookie.contains("Secure"))
        }
    }

    @Test("Opening the link again in the same browser returns to the run in progress")
    func reopeningResumes() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            #expect(browser.heading == "Do you have a fever?")
            try await browser.get("/surveys/fever-triage")
            #expect(browser.heading == "Do you have a fever?")
            var stranger = Participant(client)
            try await stranger.get("/surveys/fever-triage")
            #expect(stranger.heading == "Check your symptoms")
        }
    }

    @Test("A bad answer answers 422 with an error summary, the message beside the field and the input kept")
    func badAnswerIsShownAgain() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            try await browser.submit("fever-triage", [("fever", "true")])
            let response = try await browser.post("/surveys/fever-triage", [("celsius", "45.5"), ("since.day", "31"), ("since.month", "2")])
            #expect(response.status == .unprocessableContent)
            let page = browser.lastPage
            #expect(page.contains("<title>Error: "))
            #expect(page.contains("There is a problem"))
            #expect(page.contains("<a href=\"#celsius\">Enter a number between 34 and 43 °C</a>"))
            #expect(page.contains("<a href=\"#since.year\">The date must include a year</a>"))
            #expect(page.contains("id=\"celsius:error\""))
            #expect(page.contains("value=\"45.5\""))
            #expect(page.contains("name=\"since.day\" type=\"text\" value=\"31\""))
            #expect(page.contains("aria-describedby=\"celsius:error\""))
            #expect(page.contains("form-group--error"))
        }
    }

    @Test("A good answer redirects (303) and the next GET shows the next step")
    func goodAnswerRedirects() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            let response = try await browser.post("/surveys/fever-triage", [("fever", "false")])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/surveys/fever-triage")
            try await browser.get("/surveys/fever-triage")
            #expect(browser.heading == "What other symptoms do you have? (optional)")
        }
    }

    @Test("A POST without the CSRF token, or with another session's, is refused")
    func csrfIsChecked() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let missing = try await browser.post("/surveys/fever-triage", [("_action", "next")], csrf: false)
            #expect(missing.status == .forbidden)
            var other = Participant(client)
            try await other.get("/surveys/fever-triage")
            let token = try #require(Participant.hidden("_csrf", in: other.lastPage))
            let foreign = try await browser.post("/surveys/fever-triage", [("_action", "next"), ("_csrf", token)])
            #expect(foreign.status == .forbidden)
            #expect(!String(buffer: foreign.body).contains("Error(") )
        }
    }

    @Test("A forged session cookie is not accepted")
    func forgedCookie() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/fever-triage", method: .get,
                                                    headers: [.cookie: "survey_session=AAAAAAAAAAAAAAAAAAAAAA.forged"])
            #expect(response.headers[.setCookie] != nil)
        }
    }

    @Test("Back returns to the previous step with its answer filled in")
    func backKeepsAnswer() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            try await browser.submit("wellbeing-check", [("mood", "4")])
            #expect(browser.heading == "How long did you usually sleep each night?")
            #expect(browser.lastPage.contains("value=\"back\""))
            try await browser.submit("wellbeing-check", [("_action", "back")])
            #expect(browser.heading == "Overall, how has your mood been?")
            #expect(browser.lastPage.contains("value=\"4\" checked=\"checked\""))
        }
    }

    @Test("Skip passes an optional question and records it with no answer")
    func skipOptional() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            try await browser.submit("wellbeing-check", [("mood", "3")])
            try await browser.submit("wellbeing-check", [("_action", "skip")])
            #expect(browser.heading == "Which of these did you do?")
        }
    }

    @Test("Cancel asks for confirmation; discarding deletes the run and the link starts afresh")
    func cancelAndDiscard() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            let cancel = try await browser.post("/surveys/wellbeing-check", [("_action", "cancel")])
            #expect(cancel.headers[.location] == "/surveys/wellbeing-check/cancel")
            try await browser.get("/surveys/wellbeing-check/cancel")
            #expect(browser.lastPage.contains("value=\"discard\""))
            let discard = try await browser.post("/surveys/wellbeing-check", [("_action", "discard")])
            #expect(discard.headers[.location] == "/surveys/wellbeing-check/discarded")
            let session = try #require(browser.sessionID)
            #expect(try await store.activeRecord(session: session, survey: "wellbeing-check") == nil)
            try await browser.get("/surveys/wellbeing-check")
            #expect(browser.heading == "How have you been this week?")
        }
    }

    @Test("Save for later keeps the run; the link returns to the same step")
    func saveForLater() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            let saved = try await browser.post("/surveys/wellbeing-check", [("_action", "save")])
            #expect(saved.headers[.location] == "/surveys/wellbeing-check/saved")
            try await browser.get("/surveys/wellbeing-check")
            #expect(browser.heading == "Overall, how has your mood been?")
        }
    }

    @Test("A resubmitted old form edits that step and never duplicates a result")
    func resubmittedOldForm() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            let moodPage = browser.lastPage
            try await browser.submit("wellbeing-check", [("mood", "2")])
            try await browser.submit("wellbeing-check", [("sleep.hours", "7"), ("sleep.minutes", "30")])
            // The browser's Back shows the mood page again; its form is posted once more.
            browser.lastPage = moodPage
            try await browser.submit("wellbeing-check", [("mood", "5")])
            #expect(browser.heading == "How long did you usually sleep each night?")
            let session = try #require(browser.sessionID)
            let record = try #require(try await store.activeRecord(session: session, survey: "wellbeing-check"))
            #expect(record.run.visits.filter { $0.stepIdentifier == "mood" }.count == 1)
            #expect(record.run.visits[1].result("mood")?.answer == .scale(5))
        }
    }

    @Test("Finishing shows the completion step, the result is readable as JSON, and the link then starts a new run")
    func completionAndResult() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            try await browser.submit("fever-triage", [("fever", "false")])
            let last = try await browser.post("/surveys/fever-triage", [("other-symptoms", "A sore throat")])
            #expect(last.headers[.location] == "/surveys/fever-triage/done")
            try await browser.get("/surveys/fever-triage/done")
            #expect(browser.heading == "Look after yourself at home")
            let result = try await browser.get("/surveys/fever-triage/result.json")
            #expect(result.headers[.contentType]?.hasPrefix("application/json") == true)
            guard case .object(let task) = try JSONParser.parse(String(buffer: result.body)),
                  case .array(let steps)? = task["results"] else {
                Issue.record("not a result")
                return
            }
            #expect(task["finishReason"] == .string("completed"))
            #expect(steps.count == 4)
            try await browser.get("/surveys/fever-triage")
            #expect(browser.heading == "Check your symptoms")
        }
    }

    @Test("A survey that offers it shows the participant's answers after completion; others do not")
    func yourAnswersPage() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            try await browser.submit("wellbeing-check", [("mood", "4")])
            try await browser.submit("wellbeing-check", [("sleep.hours", "7"), ("sleep.minutes", "30")])
            try await browser.submit("wellbeing-check", [("activities", "walk"), ("activities", "other"), ("activities.other", "Swimming")])
            try await browser.submit("wellbeing-check", [("comments", "Fine")])
            #expect(browser.heading == "Check your answers")
            #expect(browser.lastPage.contains("Swimming"))
            try await browser.submit("wellbeing-check", [])
            #expect(browser.heading == "Thank you")
            #expect(browser.lastPage.contains("href=\"/surveys/wellbeing-check/answers\""))
            try await browser.get("/surveys/wellbeing-check/answers")
            #expect(browser.lastPage.contains("7 hours 30 minutes"))
            #expect(browser.lastPage.contains("Walked for 30 minutes or more, Swimming"))
            let other = try await browser.get("/surveys/fever-triage/answers")
            #expect(other.status == .notFound)
        }
    }

    @Test("Another browser cannot read a result, and a URL alone reveals nothing")
    func resultIsPrivate() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/fever-triage/result.json", method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test("Malformed requests get a 4xx, never a 500", arguments: [
        ("application/x-www-form-urlencoded", "a=%zz", HTTPResponse.Status.badRequest),
        ("application/json", "{}", .unsupportedMediaType),
    ])
    func malformedRequests(contentType: String, body: String, status: HTTPResponse.Status) async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let response = try await client.execute(uri: "/surveys/fever-triage", method: .post,
                                                    headers: [.contentType: contentType, .cookie: browser.cookie!], body: ByteBuffer(string: body))
            #expect(response.status == status)
            #expect(response.headers[.contentSecurityPolicy] != nil)
        }
    }

    @Test("A body over the limit is refused with 413")
    func bodyLimit() async throws {
        let app = try await makeApplication(maximumBodySize: 1024)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            let response = try await browser.post("/surveys/fever-triage", [("other", String(repeating: "x", count: 5000))])
            #expect(response.status == .contentTooLarge)
        }
    }

    @Test("An unknown survey is a 404 page")
    func unknownSurvey() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/nope", method: .get)
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains("Page not found"))
        }
    }

    @Test("Answers holding markup are escaped when shown again")
    func answersAreEscaped() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            try await browser.submit("wellbeing-check", [("mood", "3")])
            try await browser.submit("wellbeing-check", [("_action", "skip")])
            try await browser.submit("wellbeing-check", [("activities", "walk"), ("activities", "none")])
            try await browser.submit("wellbeing-check", [("activities", "walk")])
            let payload = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"
            try await browser.submit("wellbeing-check", [("comments", payload + String(repeating: "x", count: 600))])
            #expect(!browser.lastPage.contains("<script>alert"))
            #expect(!browser.lastPage.contains("<img src=x"))
            #expect(browser.lastPage.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test("An exclusive choice sent with another is refused with a message saying what to do")
    func exclusiveChoice() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            try await browser.submit("wellbeing-check", [("mood", "3")])
            try await browser.submit("wellbeing-check", [("_action", "skip")])
            let response = try await browser.post("/surveys/wellbeing-check", [("activities", "walk"), ("activities", "none")])
            #expect(response.status == .unprocessableContent)
            #expect(browser.lastPage.contains("Select “None of these” on its own"))
            #expect(browser.lastPage.contains("value=\"walk\" checked=\"checked\""))
        }
    }
}

@Suite("Starting the server")
struct StartupTests {
    @Test("A template that emits markup outside the allowlist stops the start")
    func badTemplateStopsStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID())")
        try FileManager.default.copyItem(atPath: Repository.path("Templates"), toPath: folder.path)
        let buttons = folder.appendingPathComponent("buttons.mustache")
        let original = try String(contentsOf: buttons, encoding: .utf8)
        try (original + "<marquee onclick=\"x()\">hi</marquee>").write(to: buttons, atomically: true, encoding: .utf8)
        await #expect(throws: StartupError.self) { _ = try await makeApplication(templates: folder.path) }
    }

    @Test("A template that is not well-formed stops the start")
    func malformedTemplateStopsStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID())")
        try FileManager.default.copyItem(atPath: Repository.path("Templates"), toPath: folder.path)
        let buttons = folder.appendingPathComponent("buttons.mustache")
        let original = try String(contentsOf: buttons, encoding: .utf8)
        try original.replacingOccurrences(of: "</div>", with: "").write(to: buttons, atomically: true, encoding: .utf8)
        await #expect(throws: StartupError.self) { _ = try await makeApplication(templates: folder.path) }
    }

    @Test("A bad survey file stops the start with the checker's messages")
    func badSurveyStopsStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("surveys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"identifier": "t", "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10, "step": 3}}]}"#
            .write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        do {
            _ = try await makeApplication(surveys: folder.path)
            Issue.record("the server started")
        } catch let error as StartupError {
            #expect(error.description.contains("$.steps[0].answerFormat.step"))
        }
    }
}
