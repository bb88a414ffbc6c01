import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PostgresNIO
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

/// A panel study over HTTP: its link's parameters checked and kept, its drawn orders kept across
/// Back and reload, its arm drawn on the server, its completion address, and a quota filled by
/// many finishers at once on two replicas sharing PostgreSQL.
@Suite("Panel studies over HTTP")
struct PanelRouteTests {
    static let link = "/surveys/panel-study?PROLIFIC_PID=P123&STUDY_ID=S1&SESSION_ID=X9"

    @Test("A link with a required parameter missing, malformed, too long or repeated gets a 400 page naming it, and no run",
          arguments: ["/surveys/panel-study?PROLIFIC_PID=P1&STUDY_ID=S1",
                      "/surveys/panel-study?PROLIFIC_PID=P-1&STUDY_ID=S1&SESSION_ID=X",
                      "/surveys/panel-study?PROLIFIC_PID=\(String(repeating: "a", count: 65))&STUDY_ID=S1&SESSION_ID=X",
                      "/surveys/panel-study?PROLIFIC_PID=P1&PROLIFIC_PID=P2&STUDY_ID=S1&SESSION_ID=X"])
    func badLinks(_ uri: String) async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var participant = Participant(client)
            let response = try await participant.get(uri)
            #expect(response.status == .badRequest)
            #expect(participant.heading == "This link is not complete")
            let named = uri.contains("SESSION_ID") ? "PROLIFIC_PID" : "SESSION_ID"
            #expect(participant.lastPage.contains("“\(named)”"))
            #expect(!participant.lastPage.contains("name=\"_csrf\""), "no form to start a run from")
        }
        #expect(try await store.records(matching: RunQuery(survey: "panel-study")).isEmpty)
    }

    /// The values of the `pet` radios in the order the page shows them.
    static func petOrder(_ page: String) -> [String] {
        page.components(separatedBy: "name=\"pet\" type=\"radio\" value=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test("The parameters are kept on the run, the choice order holds across Back and reload, and completion leads to the panel's address")
    func wholeStudy() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await participant.get(Self.link + "&UNDECLARED=secret")
            try await participant.submit("panel-study", [])
            try await participant.submit("panel-study", [("age", "35to54")])
            let order = Self.petOrder(participant.lastPage)
            #expect(order.count == 5 && order.last == "none")
            try await participant.submit("panel-study", [("_action", "back")])
            try await participant.submit("panel-study", [("age", "35to54")])
            #expect(Self.petOrder(participant.lastPage) == order)
            try await participant.get("/surveys/panel-study")
            #expect(Self.petOrder(participant.lastPage) == order)
            try await participant.submit("panel-study", [("pet", "fish")])
            #expect(participant.lastPage.contains("a fish"), "the block's first question pipes the answer")
            for _ in 0..<3 {
                let fields: [(String, String)] = participant.lastPage.contains("name=\"cost\"") ? [("cost", "false")]
                    : participant.lastPage.contains("name=\"enjoy\"") ? [("enjoy", "1")] : [("worry", "0")]
                try await participant.submit("panel-study", fields)
            }
            let task = participant.heading ?? ""
            #expect(task == "A short walk" || task == "A short read")
            try await participant.submit("panel-study", [])
            let last = try await participant.post("/surveys/panel-study", [("mood", "6")])
            #expect(last.headers[.location] == "/surveys/panel-study/return")
            try await participant.get("/surveys/panel-study/return")
            #expect(participant.lastPage.contains("url=https://app.prolific.com/submissions/complete?cc=C7PETS01"))
            let record = try #require(try await store.records(matching: RunQuery(survey: "panel-study")).first)
            #expect(record.run.parameters == ["PROLIFIC_PID": "P123", "STUDY_ID": "S1", "SESSION_ID": "X9"])
            #expect(record.run.choiceOrders?["pet"].map { $0.map { ["cat", "dog", "fish", "bird", "none"][$0] } } == order)
            let arm = try #require(record.run.arms?["arm"])
            #expect(arm == (task == "A short walk" ? "walk" : "control"))
        }
    }

    @Test("A run saved and resumed on another device shows its choices and block in the orders it drew")
    func ordersSurviveResume() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var first = Participant(client)
            try await first.get(Self.link)
            try await first.submit("panel-study", [])
            try await first.submit("panel-study", [("age", "18to34")])
            let order = Self.petOrder(first.lastPage)
            try await first.submit("panel-study", [("pet", "dog")])
            let blockStep = first.heading
            try await first.submit("panel-study", [("_action", "save")])
            let code = try #require(try await store.records(matching: RunQuery(survey: "panel-study")).first?.resume?.code)
            var second = Participant(client)
            try await second.get("/resume")
            #expect(try await second.post("/resume", [("code", code)]).headers[.location] == "/surveys/panel-study")
            try await second.get("/surveys/panel-study")
            #expect(second.heading == blockStep, "the block's first step as this run drew it")
            try await second.submit("panel-study", [("_action", "back")])
            #expect(Self.petOrder(second.lastPage) == order)
            #expect(second.lastPage.contains("value=\"dog\" checked=\"checked\""))
        }
    }

    @Test("A screen-out thanks the participant for their interest and sends them on with the screen-out code; a + in a link is a space")
    func screenOut() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store)
        try await app.test(.router) { client in
            var participant = Participant(client)
            try await participant.get("/surveys/panel-study?PROLIFIC_PID=P9&STUDY_ID=S1&SESSION_ID=X9&UNUSED=a+b")
            try await participant.submit("panel-study", [])
            let response = try await participant.post("/surveys/panel-study", [("age", "under18")])
            #expect(response.headers[.location] == "/surveys/panel-study/return")
            try await participant.get("/surveys/panel-study/return")
            #expect(participant.heading == "Thank you for your interest")
            #expect(participant.lastPage.contains("url=https://app.prolific.com/submissions/complete?cc=C7SCREEN"))
            let record = try #require(try await store.records(matching: RunQuery(survey: "panel-study")).first)
            #expect(record.run.finishReason == .screenedOut)
        }
        #expect(SurveyTakingController.queryItems("A=a+b%2Bc&B=%E2%9C%93&C").map { "\($0.name)=\($0.value)" } == ["A=a b+c", "B=✓", "C="])
    }

    @Test("A run made through the API takes the survey's parameters, checked as a link's are")
    func apiParameters() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store, apiToken: "panel-token-0123456789")
        try await app.test(.router) { client in
            func create(_ body: String) async throws -> (HTTPResponse.Status, String) {
                let response = try await client.execute(uri: "/api/v1/runs", method: .post,
                                                        headers: [.authorization: "Bearer panel-token-0123456789", .contentType: "application/json"],
                                                        body: ByteBuffer(string: body))
                return (response.status, String(buffer: response.body))
            }
            let (missing, missingText) = try await create(#"{"survey": "panel-study", "parameters": {"PROLIFIC_PID": "P1", "STUDY_ID": "S1"}}"#)
            #expect(missing == .unprocessableContent && missingText.contains(#"The parameter \"SESSION_ID\" is required."#))
            let (malformed, malformedText) = try await create(#"{"survey": "panel-study", "parameters": {"PROLIFIC_PID": "P 1", "STUDY_ID": "S", "SESSION_ID": "X"}}"#)
            #expect(malformed == .unprocessableContent && malformedText.contains("PROLIFIC_PID"))
            let (notObject, _) = try await create(#"{"survey": "panel-study", "parameters": "P1"}"#)
            #expect(notObject == .unprocessableContent)
            #expect(try await store.records(matching: RunQuery(survey: "panel-study")).isEmpty)
            let (created, _) = try await create(#"{"survey": "panel-study", "parameters": {"PROLIFIC_PID": "P1", "STUDY_ID": "S1", "SESSION_ID": "X1", "OTHER": "x"}}"#)
            #expect(created == .created)
            let unknown = try await client.execute(uri: "/api/v1/surveys/nope/quotas", method: .get,
                                                   headers: [.authorization: "Bearer panel-token-0123456789"])
            #expect(unknown.status == .notFound)
        }
        let record = try #require(try await store.records(matching: RunQuery(survey: "panel-study")).first)
        #expect(record.run.parameters == ["PROLIFIC_PID": "P1", "STUDY_ID": "S1", "SESSION_ID": "X1"])
    }

    /// A survey of one question whose "yes" answers a quota of 50 counts.
    static func quotaSurvey() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quota-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            {"identifier": "quota-study", "quotas": [{"identifier": "yes", "limit": 50, "when": {"result": "q", "equals": true}}],
             "steps": [{"identifier": "q", "type": "question", "optional": false, "title": "Yes?", "answerFormat": {"type": "boolean"}},
                       {"identifier": "done", "type": "completion", "title": "Done"}]}
            """.utf8).write(to: folder.appendingPathComponent("quota-study.json"))
        return folder.path
    }

    @Test("100 participants finishing at once on two replicas sharing PostgreSQL fill a quota of 50 exactly; the rest end as quota full")
    func quotaOnTwoReplicas() async throws {
        guard let url = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] else {
            #expect(ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] != "1", "no PostgreSQL server for the tests")
            return
        }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let stores = try (0..<2).map { _ in try PostgresRunStore(url: url + "?schema=" + schema) }
        for store in stores { Task { await store.client.run() } }
        try await stores[0].migrate()
        let surveys = try Self.quotaSurvey()
        let first = try await makeApplication(surveys: surveys, store: stores[0], apiToken: "quota-token-0123456789")
        let second = try await makeApplication(surveys: surveys, store: stores[1])
        try await first.test(.router) { one in
            try await second.test(.router) { two in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            var participant = Participant(index % 2 == 0 ? one : two)
                            try await participant.get("/surveys/quota-study")
                            let response = try await participant.post("/surveys/quota-study", [("q", "true")])
                            #expect(response.headers[.location] == "/surveys/quota-study/done")
                        }
                    }
                    try await group.waitForAll()
                }
                let quotas = try await one.execute(uri: "/api/v1/surveys/quota-study/quotas", method: .get,
                                                   headers: [.authorization: "Bearer quota-token-0123456789"])
                #expect(String(buffer: quotas.body).filter { !$0.isWhitespace }.contains("\"count\":50"))
            }
        }
        let runs = try await stores[1].records(matching: RunQuery(survey: "quota-study", limit: 1_000))
        #expect(runs.count == 100)
        #expect(runs.filter { $0.run.finishReason == .completed }.count == 50)
        #expect(runs.filter { $0.run.finishReason == .quotaFull }.count == 50)
        #expect(try await stores[0].quotaCounts(survey: "quota-study") == ["yes": 50])
    }
}
