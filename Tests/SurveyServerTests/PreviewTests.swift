import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

@Suite("The researcher's preview")
struct PreviewTests {
    static let token = "preview-token-0123456789"

    /// A folder of survey files for a test, removed at the end.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    static func previewApplication(surveys: String = Repository.path("Examples"), store: MemoryRunStore = MemoryRunStore())
        async throws -> some ApplicationProtocol {
        try await makeApplication(surveys: surveys, store: store, apiToken: "api-token-0123456789") { configuration in
            configuration.previewToken = token
        }
    }

    /// `survey preview` on the given files and folders: no token, no store.
    static func previewOnly(_ paths: [String]) async throws -> some ApplicationProtocol {
        try await buildPreviewApplication(paths: paths, configuration: ServerConfiguration(
            templatesDirectory: Repository.path("Templates"), publicDirectory: Repository.path("Public")))
    }

    /// Signs a browser in to the preview.
    static func signIn(_ browser: inout KioskBrowser) async throws {
        try await browser.get("/preview/sign-in")
        try await browser.post("/preview/sign-in", [("token", token)])
    }

    @Test("The preview asks for its token; wrong ones are refused and limited, the right one lets the researcher in")
    func signInWithToken() async throws {
        let app = try await Self.previewApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            let first = try await browser.get("/preview")
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/preview/sign-in")
            try await browser.get("/preview/sign-in")
            let wrong = try await browser.post("/preview/sign-in", [("token", "nope")])
            #expect(wrong.status == .unprocessableContent)
            #expect(browser.lastPage.contains("The token is not right"))
            let right = try await browser.post("/preview/sign-in", [("token", Self.token)])
            #expect(right.status == .seeOther)
            #expect(browser.cookies["survey_preview"] != nil)
            let index = try await browser.get("/preview")
            #expect(index.status == .ok)
            #expect(browser.lastPage.contains("href=\"/preview/fever-triage\""))
            // A forged cookie is no way in.
            var other = KioskBrowser(client)
            other.cookies["survey_preview"] = "1800000000.forged"
            let forged = try await other.get("/preview/fever-triage")
            #expect(forged.status == .seeOther)
        }
    }

    @Test("Wrong tokens are limited per client: the sixth try is refused even when right")
    func tokenRateLimit() async throws {
        let app = try await Self.previewApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview/sign-in")
            for _ in 0..<5 {
                let wrong = try await browser.post("/preview/sign-in", [("token", "wrong-token")])
                #expect(wrong.status == .unprocessableContent)
            }
            let refused = try await browser.post("/preview/sign-in", [("token", Self.token)])
            #expect(refused.status == .tooManyRequests)
        }
    }

    @Test("Without a token there is no preview on the server")
    func offWithoutToken() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/preview", method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test("The list shows each file's errors with their JSON paths, and the surveys that load")
    func listShowsErrors() async throws {
        let good = try String(contentsOfFile: Repository.path("Examples/wellbeing-check.json"), encoding: .utf8)
        let folder = try Self.folder(["good.json": good, "bad.json": #"{"identifier": "bad", "steps": [{"identifier": "a", "type": "question"}]}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await Self.previewOnly([folder.path])
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview")
            #expect(browser.lastPage.contains("href=\"/preview/wellbeing-check\""))
            #expect(browser.lastPage.contains("<code>$.steps[0]"))
            #expect(!browser.lastPage.contains("href=\"/preview/bad\""))
        }
    }

    @Test("The map lists every step with its type and rules, and links each reachable step to its preview")
    func mapOfFeverTriage() async throws {
        let app = try await Self.previewApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            let map = try await browser.get("/preview/fever-triage")
            #expect(map.status == .ok)
            let page = browser.lastPage
            for step in ["intro", "fever", "temperature", "danger-signs", "other-symptoms", "urgent", "see-gp", "self-care"] {
                #expect(page.contains("id=\"step-\(step)\""))
                #expect(page.contains("href=\"/preview/fever-triage/steps/\(step)\""))
            }
            #expect(!page.contains("preview-step--unreachable"))
            #expect(page.contains("fever"))
        }
    }

    @Test("A step behind a condition that never holds is marked unreachable, with the reason, and a jump says why")
    func unreachableStep() async throws {
        let survey = #"""
            {"identifier": "never", "steps": [
              {"identifier": "age", "type": "question", "answerFormat": {"type": "numeric", "style": "integer"}},
              {"identifier": "hidden", "type": "instruction"},
              {"identifier": "end", "type": "completion"}],
             "navigationRules": {"age": {"type": "predicate", "default": "end",
               "rules": [{"if": {"all": [{"result": "age", "minimum": 50}, {"result": "age", "maximum": 40}]}, "destination": "hidden"}]}}}
            """#
        let folder = try Self.folder(["never.json": survey])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await Self.previewApplication(surveys: folder.path)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            try await browser.get("/preview/never")
            #expect(browser.lastPage.contains("id=\"step-hidden\""))
            #expect(browser.lastPage.contains("preview-step preview-step--unreachable\" id=\"step-hidden\""))
            let jump = try await browser.get("/preview/never/steps/hidden")
            #expect(jump.status == .unprocessableContent)
            #expect(browser.lastPage.contains("No answers reach this step"))
        }
    }

    @Test("A jump fills in answers that lead to the step and shows it beside the panel; preview runs never reach the store or the API")
    func jumpAndPanel() async throws {
        let store = MemoryRunStore()
        let app = try await Self.previewApplication(store: store)
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            let jump = try await browser.get("/preview/fever-triage/steps/see-gp")
            #expect(jump.status == .seeOther)
            #expect(jump.headers[.location] == "/preview/fever-triage/run/done", "see-gp is a completion step")
            try await browser.get("/preview/fever-triage/run/done")
            let page = browser.lastPage
            #expect(page.contains("class=\"preview-panel\""))
            #expect(page.contains("Why this step is shown"))
            #expect(page.contains("After danger-signs, the rule “if temperature.celsius is at least 39 °C → step see-gp” held"))
            #expect(page.contains("<code>danger-signs</code></dt><dd class=\"summary-list__value\">None of these</dd>"))
            // A step before the end: each answer so far can be changed.
            let middle = try await browser.get("/preview/fever-triage/steps/danger-signs")
            #expect(middle.headers[.location] == "/preview/fever-triage/run")
            try await browser.get("/preview/fever-triage/run")
            #expect(browser.lastPage.contains("name=\"danger-signs\""))
            #expect(browser.lastPage.contains("href=\"/preview/fever-triage/run/change/1\""))
            #expect(page.contains("&quot;taskRunUUID&quot;") || page.contains("\"taskRunUUID\"") || page.contains("taskRunUUID"))
            // Nothing reached the server's store, or the API.
            let stored = try await store.records(matching: RunQuery())
            #expect(stored.isEmpty)
            let api = try await client.execute(uri: "/api/v1/runs?survey=fever-triage", method: .get, headers: [.authorization: "Bearer api-token-0123456789"])
            #expect(api.status == .ok)
            #expect(String(buffer: api.body).filter { !$0.isWhitespace } == #"{"runs":[]}"#)
            // The result so far is folded away under a summary.
            #expect(page.contains("<details class=\"details\"><summary class=\"details__summary\">Result so far"))
        }
    }

    @Test("Answering the previewed step carries the preview run on from there")
    func answerContinues() async throws {
        let app = try await Self.previewApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            try await browser.get("/preview/fever-triage/steps/fever")
            try await browser.get("/preview/fever-triage/run")
            #expect(browser.lastPage.contains("name=\"fever\""))
            try await browser.submit("/preview/fever-triage/run", [("fever", "false")])
            #expect(browser.lastPage.contains("other-symptoms") || browser.lastPage.contains("name=\"other-symptoms\""))
            #expect(browser.lastPage.contains("class=\"preview-panel\""))
        }
    }

    @Test("A changed survey file is read again on the next request; a broken one shows its errors, not a crash")
    func liveReload() async throws {
        let original = try String(contentsOfFile: Repository.path("Examples/wellbeing-check.json"), encoding: .utf8)
        let folder = try Self.folder(["wellbeing-check.json": original])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wellbeing-check.json")
        let app = try await Self.previewOnly([folder.path])
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview/wellbeing-check")
            #expect(browser.lastPage.contains("id=\"step-mood\""))
            try Data(original.replacingOccurrences(of: "\"mood\"", with: "\"humour\"").utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: file.path)
            try await browser.get("/preview/wellbeing-check")
            #expect(browser.lastPage.contains("id=\"step-humour\""))
            try Data("{ not json".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: file.path)
            let list = try await browser.get("/preview")
            #expect(list.status == .ok)
            #expect(browser.lastPage.contains("not valid JSON"))
        }
    }

    /// A survey with a branch that meets again, one step behind a single rule, one behind two,
    /// and a step a skip rule passes over when `a` is No.
    static let branching = #"""
        {"identifier": "branching", "steps": [
          {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "b", "type": "question", "answerFormat": {"type": "numeric", "style": "integer"}},
          {"identifier": "c", "type": "instruction"},
          {"identifier": "d", "type": "instruction"},
          {"identifier": "e", "type": "instruction"},
          {"identifier": "end", "type": "completion"}],
         "navigationRules": {
           "a": {"type": "predicate", "default": "b", "rules": [{"if": {"result": "a", "equals": true}, "destination": "c"}]},
           "b": {"type": "predicate", "default": "c", "rules": [{"if": {"result": "b", "minimum": 10}, "destination": "e"}]},
           "c": {"type": "predicate", "default": "end", "rules": [{"if": {"result": "a", "equals": true}, "destination": "d"}]},
           "d": {"type": "direct", "destination": "e"}},
         "skipRules": {"c": {"result": "b", "maximum": -100}}}
        """#

    @Test("The map says \"only if\" for a step one rule leads to, \"for example if\" where several ways lead, and nothing for a step every run shows")
    func mapConditions() async throws {
        let folder = try Self.folder(["branching.json": Self.branching])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await Self.previewOnly([folder.path])
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview/branching")
            let page = browser.lastPage
            func line(_ step: String) -> String? {
                guard let start = page.range(of: "id=\"step-\(step)\"") else { return nil }
                let rest = page[start.upperBound...]
                let item = rest.prefix(upTo: rest.range(of: "</li>\n")?.lowerBound ?? rest.endIndex)
                guard let condition = item.range(of: "class=\"body preview-condition\">") else { return "" }
                return String(item[condition.upperBound...].prefix(while: { $0 != "<" }))
            }
            #expect(line("a") == "", "the first step needs nothing")
            #expect(line("b")?.hasPrefix("only if") == true, "one way in, behind a rule: \(line("b") ?? "-")")
            #expect(line("d")?.hasPrefix("for example if") == true, "d's one rule is reached by both ways to c: \(line("d") ?? "-")")
            #expect(line("c")?.hasPrefix("for example if") == true, "two ways in: \(line("c") ?? "-")")
            #expect(line("e")?.hasPrefix("for example if") == true, "\(line("e") ?? "-")")
            // Every run ends at the completion step, whichever branch it took: no condition.
            #expect(line("end") == "")
        }
    }

    @Test("A step passed over by its skip rule is listed under \"Skipped on the way\" with its rule")
    func skippedOnTheWay() async throws {
        let folder = try Self.folder(["branching.json": Self.branching])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await Self.previewOnly([folder.path])
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview/branching/steps/b")
            try await browser.get("/preview/branching/run")
            #expect(browser.lastPage.contains("name=\"b\""))
            try await browser.submit("/preview/branching/run", [("b", "-200")])
            let page = browser.lastPage
            #expect(page.contains("Skipped on the way"))
            #expect(page.contains("<li>c: "), "c's skip rule held on b = -200")
        }
    }

    @Test("An answer of a preview run that has ended can still be changed: the run opens again at it")
    func changeAfterTheEnd() async throws {
        let app = try await Self.previewApplication()
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            try await browser.get("/preview/fever-triage/steps/see-gp")
            try await browser.get("/preview/fever-triage/run/done")
            let done = browser.lastPage
            #expect(done.contains("href=\"/preview/fever-triage/run/change/1\""), "the ended run's answers keep their change links")
            let change = try await browser.get("/preview/fever-triage/run/change/1")
            #expect(change.status == .seeOther)
            #expect(change.headers[.location] == "/preview/fever-triage/run")
            try await browser.get("/preview/fever-triage/run")
            #expect(browser.lastPage.contains("name=\"fever\""), "the run stands at the answer to change")
            #expect(browser.lastPage.contains("value=\"true\" checked=\"checked\""), "with the answer it had")
            try await browser.submit("/preview/fever-triage/run", [("fever", "false")])
            #expect(browser.lastPage.contains("name=\"other-symptoms\""))
        }
    }

    @Test("A preview run that completes queues no webhook in the server's store")
    func noWebhookFromPreview() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store, configure: { configuration in
            configuration.previewToken = Self.token
            configuration.webhookURL = "http://127.0.0.1:9/hook"
            configuration.webhookSecret = Data(repeating: 1, count: 32)
        })
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await Self.signIn(&browser)
            try await browser.get("/preview/fever-triage/steps/danger-signs")
            try await browser.get("/preview/fever-triage/run")
            try await browser.submit("/preview/fever-triage/run", [("danger-signs", "none")])
            #expect(browser.lastPage.contains("preview-panel"))
            #expect(try await store.claimDueEvents(now: .distantFuture, lease: 1, limit: 10).isEmpty)
            #expect(try await store.records(matching: RunQuery()).isEmpty)
        }
    }

    @Test("A changed template is read again on the next request; a broken one is reported, not a crash")
    func templateReload() async throws {
        let templates = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID())")
        try FileManager.default.copyItem(atPath: Repository.path("Templates"), toPath: templates.path)
        defer { try? FileManager.default.removeItem(at: templates) }
        let app = try await buildPreviewApplication(paths: [Repository.path("Examples/wellbeing-check.json")], configuration: ServerConfiguration(
            templatesDirectory: templates.path, publicDirectory: Repository.path("Public")))
        let map = templates.appendingPathComponent("preview-map.mustache")
        try await app.test(.router) { client in
            var browser = KioskBrowser(client)
            try await browser.get("/preview/wellbeing-check")
            #expect(!browser.lastPage.contains("edited-map-marker"))
            let original = try String(contentsOf: map, encoding: .utf8)
            try Data(("<p class=\"body\">edited-map-marker</p>\n" + original).utf8).write(to: map)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: map.path)
            try await browser.get("/preview/wellbeing-check")
            #expect(browser.lastPage.contains("edited-map-marker"))
            try Data("{{#steps}} never closed".utf8).write(to: map)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: map.path)
            let list = try await browser.get("/preview")
            #expect(list.status == .ok)
            #expect(browser.lastPage.contains("cannot be read") || browser.lastPage.contains("The templates cannot be used"))
        }
    }
}
