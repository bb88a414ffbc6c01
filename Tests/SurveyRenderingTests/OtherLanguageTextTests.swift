import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("A survey's text shown in another language than the page's says which")
struct OtherLanguageTextTests {
    static let survey = """
        {"identifier": "mixed", "languages": ["es", "en", "ar"],
         "steps": [
          {"identifier": "intro", "type": "instruction", "title": {"es": "Hola", "en": "Hello"},
           "text": {"en": "<p>Only in English.</p><ul><li>One</li></ul>"}},
          {"identifier": "q", "type": "question", "title": {"en": "How old are you?"}, "answerFormat": {"type": "age"}},
          {"identifier": "done", "type": "completion"}]}
        """

    static func pages(kiosk: Bool = false) async throws -> SurveyPages {
        let task = try SurveyLoader.load(Data(survey.utf8)).task
        return try SurveyPages(task: task, library: try await Files.library(), checker: MarkupChecker(allowlist: MarkupChecker.templateAllowlist),
                               kiosk: kiosk ? KioskTiming(idleAfter: 60, returnAfter: 10) : nil)
    }

    static func firstPage(_ pages: SurveyPages, language: String, visit: Int = 0) -> String {
        var run = pages.navigator.start(now: Date())
        if visit > 0, case .accepted(let next) = pages.navigator.answer(run, visit: 0, fields: FormFields(), context: AnswerContext(language: language)) {
            run = next
        }
        return pages.renderStep(run: run, visit: visit, language: language, csrfToken: "t",
                                context: AnswerContext(language: language)) ?? ""
    }

    @Test("Block text in English on a Spanish page: each paragraph and list is marked lang=en")
    func blockFallback() async throws {
        let page = Self.firstPage(try await Self.pages(), language: "es")
        #expect(page.contains("<html lang=\"es\" dir=\"ltr\">"))
        #expect(page.contains("<p lang=\"en\" dir=\"ltr\">Only in English.</p><ul lang=\"en\" dir=\"ltr\">"))
        #expect(page.contains(">Hola<"), "the title has Spanish and is not marked")
        #expect(!page.contains("lang=\"en\" dir=\"ltr\">Hola"))
    }

    @Test("A heading in English on an Arabic page is a span with lang=en and dir=ltr")
    func inlineFallback() async throws {
        let page = Self.firstPage(try await Self.pages(), language: "ar", visit: 1)
        #expect(page.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(page.contains("<span lang=\"en\" dir=\"ltr\">How old are you?</span>"))
    }

    @Test("On the page's own language nothing is marked")
    func ownLanguage() async throws {
        let page = Self.firstPage(try await Self.pages(), language: "en")
        #expect(!page.contains("<p lang="))
        #expect(!page.contains("<span lang="))
    }
}
