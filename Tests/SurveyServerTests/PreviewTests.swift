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
            #expect(!String(buffer: api.body).contains("fever-triage"))
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
}
