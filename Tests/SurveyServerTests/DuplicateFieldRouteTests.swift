import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("A field posted twice")
struct DuplicateFieldRouteTests {
    @Test("Two different answers to a yes/no question get 422 with the question asked again, and nothing is stored")
    func conflictingAnswerIsRefused() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            let response = try await browser.post("/surveys/fever-triage", [("fever", "true"), ("fever", "false")])
            #expect(response.status == .unprocessableContent)
            #expect(browser.lastPage.contains("<a href=\"#fever\">We received two different answers here; choose one and continue</a>"))
            let session = try #require(browser.sessionID)
            let record = try #require(try await store.activeRecord(session: session, survey: "fever-triage"))
            #expect(record.run.visits.allSatisfy { $0.result("fever") == nil })
            // The same answer twice is one answer.
            let again = try await browser.post("/surveys/fever-triage", [("fever", "false"), ("fever", "false")])
            #expect(again.status == .seeOther)
        }
    }

    @Test("A control field posted twice with different values gets 400 and changes nothing")
    func conflictingControlFieldIsRefused() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            let response = try await browser.post("/surveys/fever-triage", [("fever", "true"), ("_action", "next"), ("_action", "cancel")])
            #expect(response.status == .badRequest)
            let session = try #require(browser.sessionID)
            let record = try #require(try await store.activeRecord(session: session, survey: "fever-triage"))
            #expect(record.run.visits.allSatisfy { $0.result("fever") == nil })
            #expect(record.run.finishReason == nil)
        }
    }
}
