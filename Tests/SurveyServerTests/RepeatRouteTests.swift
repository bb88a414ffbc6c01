import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import SurveyCore
import SurveyStorage
import SurveyTestSupport
import Testing
@testable import SurveyServer

/// A repeating form over HTTP: each instance's page names it, the list takes Change, Remove
/// and "add another", its errors come back with the page, Back and a stale page land where
/// they should, and the audit log records each instance saved and removed.
@Suite("Repeating forms through the server")
struct RepeatRouteTests {
    /// Posts the current page with its instance's index, and follows the redirect.
    static func send(_ browser: inout Participant, _ pairs: [(String, String)]) async throws -> TestResponse {
        var all = pairs
        if let instance = Participant.hidden("_instance", in: browser.lastPage), !pairs.contains(where: { $0.0 == "_instance" }) {
            all.append(("_instance", instance))
        }
        return try await browser.submit("medication-list", all)
    }

    @Test("Add, refuse an empty list answer, remove with its confirmation, keep on No, and finish with the instances in the result")
    func addRemoveFinish() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/medication-list")
            try await Self.send(&browser, [])
            #expect(browser.heading?.hasPrefix("Medicine 1") == true, "\(browser.heading ?? "")")
            #expect(Participant.hidden("_instance", in: browser.lastPage) == "0")
            try await Self.send(&browser, [("name", "Aspirin")])
            #expect(browser.lastPage.contains("How much of Aspirin do you take each time?"), "piped from the instance's own answer")
            let refused = try await Self.send(&browser, [("unit", "mg")])
            #expect(refused.status == .unprocessableContent)
            #expect(browser.lastPage.contains("Medicine 1: Enter a number"))
            try await Self.send(&browser, [("dose", "75"), ("unit", "mg")])
            #expect(browser.lastPage.contains("<dt class=\"summary-list__key\">Medicine 1</dt><dd class=\"summary-list__value\">Aspirin"))
            let noChoice = try await Self.send(&browser, [])
            #expect(noChoice.status == .unprocessableContent)
            #expect(browser.lastPage.contains("Select yes if you need to add another"))
            try await Self.send(&browser, [("_another", "yes")])
            #expect(browser.heading?.hasPrefix("Medicine 2") == true)
            try await Self.send(&browser, [("name", "Ibuprofen")])
            try await Self.send(&browser, [("dose", "200"), ("unit", "mg")])
            try await Self.send(&browser, [("_action", "repeat-remove-0")])
            #expect(browser.heading == "Are you sure you want to remove Medicine 1?")
            try await Self.send(&browser, [("_action", "repeat-removeNo-0")])
            #expect(browser.lastPage.components(separatedBy: "<dt class=\"summary-list__key\">").count == 3, "No keeps both")
            try await Self.send(&browser, [("_action", "repeat-remove-0")])
            try await Self.send(&browser, [("_action", "repeat-removeYes-0")])
            #expect(browser.lastPage.contains("<dd class=\"summary-list__value\">Ibuprofen") && !browser.lastPage.contains(">Aspirin<"))
            // Back from the list leaves the step; Next comes back to the same list.
            try await Self.send(&browser, [("_action", "back")])
            #expect(browser.heading == "The medicines you take")
            try await Self.send(&browser, [])
            #expect(browser.lastPage.contains("<dd class=\"summary-list__value\">Ibuprofen"))
            try await Self.send(&browser, [("_another", "no")])
            #expect(browser.heading == "Check your answers")
            #expect(browser.lastPage.contains("Your medicines – Medicine 1"))
            #expect(browser.lastPage.contains("How much of Ibuprofen do you take each time?"), "the review pipes the instance's own answers")
            try await Self.send(&browser, [])
            let result = try JSONParser.parse(String(buffer: try await browser.get("/surveys/medication-list/result.json").body))
            #expect(pick(result, "results", 1, "instances", 0, "results", 0, "textAnswer") == .string("Ibuprofen"))
            #expect(pick(result, "results", 1, "instances", 1) == nil)
        }
        let actions = await store.auditChainEntries(after: nil, chain: nil, limit: 1000).map(\.action)
        #expect(actions.filter { $0 == "instance.saved" }.count == 2)
        #expect(actions.filter { $0 == "instance.removed" }.count == 1)
        #expect(try await store.verifyAudit().problems.isEmpty)
    }

    @Test("A grid's error summary names the row of each message; the message beside the row does not need to")
    func gridErrors() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/gad-7")
            let refused = try await browser.submit("gad-7", [("nervous", "1")])
            #expect(refused.status == .unprocessableContent)
            #expect(browser.lastPage.contains("<a href=\"#control\">Not being able to stop or control worrying: Select an answer</a>"))
            #expect(!browser.lastPage.contains("Feeling nervous, anxious or on edge: "), "an answered row has no message")
            #expect(browser.lastPage.contains("<div class=\"grid__head\" aria-hidden=\"true\">"))
        }
    }

    @Test("A page of an instance sent again from the browser's history changes that instance, not the list")
    func stalePage() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/medication-list")
            try await Self.send(&browser, [])
            try await Self.send(&browser, [("name", "Aspirin")])
            let doseForm = browser.lastPage
            try await Self.send(&browser, [("dose", "75"), ("unit", "mg")])
            #expect(browser.lastPage.contains(">Aspirin<"))
            // The dose page of instance 1, kept in the history, posted again with another dose.
            browser.lastPage = doseForm
            try await Self.send(&browser, [("dose", "100"), ("unit", "mg")])
            try await Self.send(&browser, [("_action", "repeat-change-0")])
            try await Self.send(&browser, [("name", "Aspirin")])
            #expect(browser.lastPage.contains("value=\"100\""), "the stale page's dose was saved to instance 1")
        }
    }
}
