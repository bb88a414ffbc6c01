import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("A field posted twice")
struct DuplicateFieldRouteTests {
    /// A browser on fever-triage's yes/no question, with the run stored, and what the store holds for it.
    static func atFeverQuestion(_ body: @Sendable (inout Participant, @escaping @Sendable () async throws -> TaskRun) async throws -> Void) async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/fever-triage")
            try await browser.submit("fever-triage", [("_action", "next")])
            let session = try #require(browser.sessionID)
            try await body(&browser) { try #require(try await store.activeRecord(session: session, survey: "fever-triage")).run }
        }
    }

    @Test("Two different answers to a yes/no question get 422 with the question asked again, and nothing is stored")
    func conflictingAnswerIsRefused() async throws {
        try await Self.atFeverQuestion { browser, stored in
            let response = try await browser.post("/surveys/fever-triage", [("fever", "true"), ("fever", "false")])
            #expect(response.status == .unprocessableContent)
            #expect(browser.lastPage.contains("<a href=\"#fever\">We received two different answers here; choose one and continue</a>"))
            #expect(try await stored().visits.allSatisfy { $0.result("fever") == nil })
            // The same answer twice is one answer.
            let again = try await browser.post("/surveys/fever-triage", [("fever", "false"), ("fever", "false")])
            #expect(again.status == .seeOther)
        }
    }

    @Test("A control field posted twice with different values gets 400 and changes nothing")
    func conflictingControlFieldIsRefused() async throws {
        try await Self.atFeverQuestion { browser, stored in
            let response = try await browser.post("/surveys/fever-triage", [("fever", "true"), ("_action", "next"), ("_action", "cancel")])
            #expect(response.status == .badRequest)
            let run = try await stored()
            #expect(run.visits.allSatisfy { $0.result("fever") == nil })
            #expect(run.finishReason == nil)
        }
    }
}
