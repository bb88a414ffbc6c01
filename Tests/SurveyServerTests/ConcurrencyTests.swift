import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("Double submits and two tabs")
struct ConcurrencyTests {
    @Test("A double submit of one page records one answer and both requests land on the current step")
    func doubleSubmit() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var browser = Participant(client)
            try await browser.get("/surveys/wellbeing-check")
            try await browser.submit("wellbeing-check", [("_action", "next")])
            let moodPage = browser.lastPage
            var first = browser
            var second = browser
            first.lastPage = moodPage
            second.lastPage = moodPage
            async let a = first.post("/surveys/wellbeing-check", [("mood", "2")])
            async let b = second.post("/surveys/wellbeing-check", [("mood", "5")])
            let (ra, rb) = try await (a, b)
            #expect(ra.status == .seeOther)
            #expect(rb.status == .seeOther)
            #expect(ra.headers[.location] == "/surveys/wellbeing-check")
            #expect(rb.headers[.location] == "/surveys/wellbeing-check")
            let record = try #require(try await store.activeRecord(session: browser.sessionID!, survey: "wellbeing-check"))
            #expect(record.run.visits.filter { $0.stepIdentifier == "mood" }.count == 1)
            #expect(record.run.visits.map(\.stepIdentifier) == ["intro", "mood", "sleep"])
            #expect(record.run.cursor == 2)
        }
    }

    @Test("Two tabs on one run: an answer from the older tab edits its step, and the path stays whole")
    func twoTabs() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var tabA = Participant(client)
            try await tabA.get("/surveys/wellbeing-check")
            try await tabA.submit("wellbeing-check", [("_action", "next")])
            var tabB = tabA
            try await tabA.submit("wellbeing-check", [("mood", "3")])
            try await tabA.submit("wellbeing-check", [("sleep.hours", "8"), ("sleep.minutes", "0")])
            #expect(tabA.heading == "Which of these did you do?")
            // Tab B still shows the mood question and answers it.
            try await tabB.submit("wellbeing-check", [("mood", "1")])
            #expect(tabB.heading == "How long did you usually sleep each night?")
            let record = try #require(try await store.activeRecord(session: tabA.sessionID!, survey: "wellbeing-check"))
            #expect(record.run.visits.filter { $0.stepIdentifier == "mood" }.count == 1)
            #expect(record.run.visits[1].result("mood")?.answer == .scale(1))
            // The sleep answer given in tab A is kept while the path still leads there.
            #expect(record.run.visits.count == 4)
            #expect(record.run.visits[2].result("sleep")?.answer == .timeInterval(28_800))
        }
    }
}
