import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("Choosing the language: ?lang=, the switcher, Accept-Language; remembered for the run")
struct LanguageSwitcherTests {
    @Test("Every step page offers the survey's other languages, each by its own name, as buttons of the step's form")
    func switcherOnStepPages() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            #expect(browser.lastPage.contains(
                "<button type=\"submit\" form=\"step-form\" class=\"link-button\" name=\"_lang\" value=\"es\" lang=\"es\" dir=\"ltr\">Español</button>"))
            #expect(!browser.lastPage.contains("value=\"en\" lang=\"en\""), "the page's own language is not offered")
            // A survey in one language has no switcher.
            try await browser.get("/surveys/wellbeing-check")
            #expect(!browser.lastPage.contains("language-switcher"))
        }
    }

    @Test("The switcher shows the same page in the chosen language with what was typed kept, stores nothing, and is remembered")
    func switchKeepsAnswersAndIsRemembered() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            browser.headers = [.acceptLanguage: "en-GB,en;q=0.8"]
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("/surveys/fever-triage", [("_action", "next")])
            #expect(browser.lastPage.contains("<html lang=\"en\""))
            let session = try #require(browser.cookies["survey_session"]?.split(separator: ".").first.map(String.init))
            let before = try #require(try await store.activeRecord(session: session, survey: "fever-triage"))
            let switched = try await browser.post("/surveys/fever-triage", [("fever", "true"), ("_lang", "es")])
            #expect(switched.status == .ok)
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            #expect(browser.lastPage.contains("¿Tiene fiebre?"))
            #expect(browser.lastPage.contains("value=\"true\" checked=\"checked\""))
            let after = try #require(try await store.activeRecord(session: session, survey: "fever-triage"))
            #expect(after.run == before.run, "switching stores nothing")
            // The browser still asks for English; the run keeps Spanish.
            let cookie = try #require(switched.headers[values: .setCookie].first { $0.hasPrefix("survey_lang=es") })
            #expect(cookie.contains("HttpOnly"))
            try await browser.get("/surveys/fever-triage")
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            // A wrong answer is worded in Spanish.
            try await browser.submit("/surveys/fever-triage", [("fever", "true")])
            let refused = try await browser.post("/surveys/fever-triage", [("celsius", "cuarenta")])
            #expect(refused.status == .unprocessableContent)
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            #expect(browser.lastPage.contains("value=\"cuarenta\""))
        }
    }

    @Test("?lang= chooses among the survey's languages, on any page; a page that is not a step switches by a GET form")
    func queryParameter() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            let response = try await browser.get("/surveys/fever-triage?lang=es")
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("survey_lang=es") })
            try await browser.get("/surveys/fever-triage/cancel?lang=es")
            #expect(browser.lastPage.contains("<form class=\"language-switcher__form\" method=\"get\">"))
            #expect(browser.lastPage.contains("name=\"lang\" value=\"en\" lang=\"en\" dir=\"ltr\">English</button>"))
            // A language the survey lacks falls back to its first.
            var other = Participant(client)
            try await other.get("/surveys/fever-triage?lang=fr")
            browser = other
            #expect(browser.lastPage.contains("<html lang=\"en\""))
        }
    }

    @Test("On a kiosk the switcher changes the turn's language, which the turn then keeps")
    func kioskTurnKeepsSwitchedLanguage() async throws {
        let app = try await KioskTests.kioskApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.setUp("fever-triage")
            try await browser.start("fever-triage", language: "en")
            try await browser.post("/kiosk/fever-triage", [("_lang", "es")])
            #expect(browser.lastPage.contains("<html lang=\"es\""))
            try await browser.get("/kiosk/fever-triage")
            #expect(browser.lastPage.contains("<html lang=\"es\""))
        }
    }
}
