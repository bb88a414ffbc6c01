import Foundation
import SurveyCore
import SurveyTestSupport
import Testing
@testable import SurveyRendering

/// Piped text on a page: the answer as the participant saw it, escaped; the fallback when
/// there is none; and a shuffled list drawn in the run's order.
@Suite("Piped text and shuffled choices on a page")
struct PipingTests {
    static let survey = """
        {"identifier": "pipe", "parameters": [{"name": "PID", "required": true}], "steps": [
          {"identifier": "name", "type": "question", "optional": true, "answerFormat": {"type": "text"}},
          {"identifier": "pet", "type": "question", "optional": false, "answerFormat": {"type": "textChoice", "style": "singleChoice",
           "shuffle": true, "choices": [{"text": "a <i>cat</i>", "value": "cat"}, {"text": "a dog", "value": "dog"},
           {"text": "a fish", "value": "fish"}, {"text": "none", "value": "none", "pinned": true}]}},
          {"identifier": "when", "type": "question", "optional": false, "answerFormat": {"type": "date"}},
          {"identifier": "end", "type": "instruction", "title": "Thanks ${name|friend}, for ${pet} (${parameters.PID}) since ${when}"}]}
        """

    func page(after answers: [[String: String]], language: String = "en") async throws -> (String, TaskRun) {
        let pages = try SurveyPages(task: try loadSurvey(Self.survey), library: try await Files.library(), timeZone: utc)
        var walker = Walker(pages.task)
        walker.run = walker.navigator.start(uuid: UUID(), now: referenceNow, parameters: ["PID": "P<7>"])
        for fields in answers { #expect(walker.next(fields).isEmpty) }
        let html = try #require(pages.renderStep(run: walker.run, visit: walker.run.cursor, language: language, csrfToken: "t",
                                                 context: AnswerContext(language: language, now: referenceNow, timeZone: utc)))
        return (html, walker.run)
    }

    @Test("An answer shows as the participant saw it, escaped, and a missing one shows its fallback")
    func answersArePiped() async throws {
        let (html, _) = try await page(after: [["name": "<b>Ana</b>"], ["pet": "cat"], ["when": "2026-03-04"]])
        // The choice as it reads on its page (its markup is not text), the typed name escaped.
        #expect(html.contains("Thanks &lt;b&gt;Ana&lt;/b&gt;, for a cat (P&lt;7&gt;) since 4 March 2026"))
        #expect(!html.contains("${"))
        let (skipped, _) = try await page(after: [["name": ""], ["pet": "dog"], ["when": "2026-03-04"]])
        #expect(skipped.contains("Thanks friend, for a dog"))
        let (german, _) = try await page(after: [["name": "Ana"], ["pet": "dog"], ["when": "2026-03-04"]], language: "de")
        #expect(german.contains("4. März 2026") || german.contains("04.03.2026"), "the date in the page's language")
    }

    @Test("The review step shows a piped title as its own page did")
    func reviewIsPiped() async throws {
        let task = try loadSurvey("""
            {"identifier": "review-pipe", "steps": [
              {"identifier": "name", "type": "question", "optional": false, "title": "Your name?", "answerFormat": {"type": "text"}},
              {"identifier": "pet", "type": "question", "optional": false, "title": "Which pet, ${name}?", "answerFormat": {"type": "boolean"}},
              {"identifier": "check", "type": "review"}]}
            """)
        let pages = try SurveyPages(task: task, library: try await Files.library(), timeZone: utc)
        var walker = Walker(task)
        #expect(walker.next(["name": "Ana & Bo"]).isEmpty)
        #expect(walker.next(["pet": "true"]).isEmpty)
        let html = try #require(pages.renderStep(run: walker.run, visit: walker.run.cursor, language: "en", csrfToken: "t",
                                                 context: AnswerContext(language: "en", now: referenceNow, timeZone: utc)))
        #expect(html.contains("Which pet, Ana &amp; Bo?"))
        #expect(!html.contains("${"))
    }

    @Test("Shuffled choices are drawn in the run's order, the pinned one last")
    func choicesInTheRunsOrder() async throws {
        let (html, run) = try await page(after: [["name": "Ana"]])
        let order = try #require(run.choiceOrders?["pet"])
        let values = ["cat", "dog", "fish", "none"]
        let shown = values.sorted { html.range(of: "value=\"\($0)\"")!.lowerBound < html.range(of: "value=\"\($1)\"")!.lowerBound }
        #expect(shown == order.map { values[$0] })
        #expect(shown.last == "none")
    }
}
