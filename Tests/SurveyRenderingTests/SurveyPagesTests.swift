import Foundation
import Mustache
import SurveyCore
import Testing
@testable import SurveyRendering

enum Files {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func surveys() -> [String] {
        let examples = ["Examples/every-format.json", "Examples/fever-triage.json", "Examples/wellbeing-check.json"]
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/SurveyCoreTests/Fixtures/formats").path)) ?? []
        return examples + fixtures.sorted().map { "Tests/SurveyCoreTests/Fixtures/formats/\($0)" }
    }

    static func library() async throws -> MustacheLibrary {
        try await MustacheLibrary(directory: root.appendingPathComponent("Templates").path)
    }

    static func task(_ path: String) throws -> SurveyTask {
        try SurveyLoader.load(contentsOf: root.appendingPathComponent(path)).task
    }
}

@Suite("Survey pages")
struct SurveyPagesTests {
    @Test("Every page of every example and format fixture is well-formed and inside the template allowlist", arguments: Files.surveys())
    func everyPagePassesTheChecker(_ path: String) async throws {
        let pages = try SurveyPages(task: try Files.task(path), library: try await Files.library(),
                                    checker: MarkupChecker(allowlist: MarkupChecker.templateAllowlist))
        #expect(!pages.languages.isEmpty)
    }

    @Test("A page is split at its slot markers and filled per request")
    func slotsAreFilled() {
        let table = SlotTable()
        let text = "<p>\(table.marker(.titlePrefix))T</p><input value=\"\(table.marker(.value("q")))\"\(table.marker(.checked(field: "c", value: "1"))) />"
            + "\(table.marker(.itemStart("hidden")))<b>gone</b>\(table.marker(.itemEnd))<i>\(table.marker(.csrf))</i>"
        let template = PageTemplate(rendered: text, slots: table.slots, errorPrefix: "Error: ")
        let page = template.render(PageFill(csrfToken: "tok<en", visit: 0, fields: FormFields(["q": ["a\"b"], "c": ["1"]]),
                                            issues: [AnswerIssue(field: "q", code: .required, problem: .missing(.text))], hiddenItems: ["hidden"], canGoBack: false))
        #expect(page == "<p>Error: T</p><input value=\"a&quot;b\" checked=\"checked\" /><i>tok&lt;en</i>")
    }

    @Test("Saved answers fill the form again, for every answer format", arguments: AnswerFormat.typeNames)
    func savedAnswersFillTheForm(_ type: String) async throws {
        let task = try Files.task("Tests/SurveyCoreTests/Fixtures/formats/\(type).json")
        let pages = try SurveyPages(task: task, library: try await Files.library())
        let context = AnswerContext(language: "en", now: Date(timeIntervalSince1970: 1_795_255_200), timeZone: pages.navigator.timeZone)
        let question = task.steps[0].questions[0]
        let fields = Self.sampleFields[type]!
        guard case .answer(let answer) = AnswerParser.parse(question.answerFormat, name: "q", fields: FormFields(pairs: fields), context: context) else {
            Issue.record("the sample answer for \(type) was refused")
            return
        }
        var run = pages.navigator.start(now: context.now)
        run.visits[0].results = [.make(for: question, answer: answer, startDate: context.now, endDate: context.now, timeZone: context.timeZone)]
        let html = try #require(pages.renderStep(run: run, visit: 0, language: "en", csrfToken: "t", context: context))
        for (name, value) in AnswerFields.fields(for: answer, format: question.answerFormat, name: "q", context: context) where !name.hasSuffix(".dontKnow") {
            let escaped = HTMLEscaping.escape(value)
            let filled = html.contains("name=\"\(name)\" type=\"radio\" value=\"\(escaped)\" checked=\"checked\"")
                || html.contains("name=\"\(name)\" type=\"checkbox\" value=\"\(escaped)\" checked=\"checked\"")
                || html.contains("name=\"\(name)\" type=\"text\" value=\"\(escaped)\"")
                || html.contains("name=\"\(name)\" type=\"time\" value=\"\(escaped)\"")
                || html.contains("name=\"\(name)\" type=\"email\" value=\"\(escaped)\"")
                || html.contains("<option value=\"\(escaped)\" selected=\"selected\">")
                || html.contains(">\(escaped)</textarea>")
            #expect(filled, "\(type): \(name)=\(value) is not filled in")
        }
    }

    static let sampleFields: [String: [(String, String)]] = [
        "boolean": [("q", "true")], "textChoice": [("q", "red"), ("q", "other"), ("q.other", "Teal")], "valuePicker": [("q", "2")],
        "multipleValuePicker": [("q.0", "1"), ("q.1", "lb")], "imageChoice": [("q", "sad")], "scale": [("q", "6")],
        "continuousScale": [("q", "45")], "textScale": [("q", "good")], "numeric": [("q", "12.5")], "timeOfDay": [("q", "08:45")],
        "date": [("q.day", "3"), ("q.month", "4"), ("q.year", "2026"), ("q.time", "09:15")], "timeInterval": [("q.hours", "1"), ("q.minutes", "35")],
        "text": [("q", "AB1234")], "email": [("q", "a@example.org")], "height": [("q.feet", "5"), ("q.inches", "10")],
        "weight": [("q", "70.25")], "age": [("q", "44")], "location": [("q", "1 Main Street")], "ses": [("q", "7")],
    ]

    @Test("Items hidden by visibleIf are left out of the page")
    func hiddenItemsAreLeftOut() async throws {
        let task = try Files.task("Examples/every-format.json")
        let pages = try SurveyPages(task: task, library: try await Files.library())
        guard let formIndex = task.steps.firstIndex(where: { $0.identifier == "about-you" }) else {
            Issue.record("no about-you form")
            return
        }
        var run = pages.navigator.start(now: Date())
        run.visits = [StepVisit(stepIdentifier: "contact-ok", startDate: Date(), results: [
            QuestionResult(identifier: "contact-ok", type: .boolean, startDate: Date(), endDate: Date(), answer: .boolean(false)),
        ], isAnswered: true), StepVisit(stepIdentifier: task.steps[formIndex].identifier, startDate: Date())]
        run.cursor = 1
        let context = AnswerContext(language: "en")
        let hidden = try #require(pages.renderStep(run: run, visit: 1, language: "en", csrfToken: "t", context: context))
        #expect(!hidden.contains("name=\"email\""))
        run.visits[0].results[0].answer = .boolean(true)
        let shown = try #require(pages.renderStep(run: run, visit: 1, language: "en", csrfToken: "t", context: context))
        #expect(shown.contains("name=\"email\""))
    }

    @Test("Pages follow the participant's language, with the server's words from its catalog")
    func languages() async throws {
        let pages = try SurveyPages(task: try Files.task("Examples/fever-triage.json"), library: try await Files.library())
        #expect(pages.language(preferring: ["es-MX", "en"]) == "es")
        #expect(pages.language(preferring: ["fr"]) == "en")
        let run = pages.navigator.start(now: Date())
        let html = try #require(pages.renderStep(run: run, visit: 0, language: "es", csrfToken: "t", context: AnswerContext(language: "es")))
        #expect(html.contains("<html lang=\"es\" dir=\"ltr\">"))
        #expect(html.contains("Compruebe sus síntomas"))
        #expect(html.contains(">Empezar</button>"))
    }
}
