import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Steps that show nothing (a hidden question step, a form of hidden questions, as a FHIR
/// Questionnaire's hidden items and groups become): never drawn, never a page to go back to,
/// but their values are recorded and worked out again when the answers they read change.
@Suite("Steps that show nothing")
struct SilentStepTests {
    static let survey = """
    { "identifier": "silent", "steps": [
      { "identifier": "seed", "type": "question", "title": "Hidden at the start", "hidden": true, "initial": "clinic-a",
        "answerFormat": { "type": "text" } },
      { "identifier": "age", "type": "question", "title": "Your age?", "answerFormat": { "type": "numeric", "style": "integer" } },
      { "identifier": "double", "type": "question", "title": "Twice your age", "hidden": true,
        "calculatedExpression": "%resource.item.where(linkId = 'age').answer.value * 2",
        "answerFormat": { "type": "numeric", "style": "integer" } },
      { "identifier": "meta", "type": "form", "title": "Hidden group", "items": [
          { "identifier": "source", "text": "Source", "hidden": true, "initial": "kiosk", "answerFormat": { "type": "text" } },
          { "identifier": "version", "text": "Version", "hidden": true, "initial": 3, "answerFormat": { "type": "numeric", "style": "integer" } }
        ] },
      { "identifier": "mood", "type": "question", "title": "Your mood?", "answerFormat": { "type": "boolean" } },
      { "identifier": "check", "type": "review" }
    ] }
    """

    @Test("A run starts at the first step that shows something and passes over the rest, recording their values")
    func passesOver() throws {
        let task = try loadSurvey(Self.survey)
        #expect(task.steps.filter(\.showsNothing).map(\.identifier) == ["seed", "double", "meta"])
        var walker = Walker(task)
        #expect(walker.currentIdentifier == "age")
        #expect(!walker.navigator.canGoBack(walker.run), "nothing shown comes before the first page")
        #expect(walker.next(["age": "30"]).isEmpty)
        #expect(walker.currentIdentifier == "mood")
        #expect(walker.pathIdentifiers == ["seed", "age", "double", "meta", "mood"])
        let result = walker.result
        #expect(result.stepResult("seed")?.results.first?.answer == .text("clinic-a"))
        #expect(result.stepResult("double")?.results.first?.answer == .numeric(60))
        #expect(result.stepResult("meta")?.results.map(\.answer) == [.text("kiosk"), .numeric(3)])
    }

    @Test("Back passes over them too, and a changed answer works their values out again")
    func backAndChange() throws {
        let task = try loadSurvey(Self.survey)
        var walker = Walker(task)
        walker.next(["age": "30"])
        walker.back()
        #expect(walker.currentIdentifier == "age")
        #expect(walker.next(["age": "41"]).isEmpty)
        #expect(walker.currentIdentifier == "mood")
        #expect(walker.result.stepResult("double")?.results.first?.answer == .numeric(82))
        #expect(walker.next(["mood": "true"]).isEmpty)
        #expect(walker.currentIdentifier == "check")
    }

    @Test("A survey of nothing but hidden steps completes as it starts")
    func onlySilent() throws {
        let task = try loadSurvey("""
        { "identifier": "quiet", "steps": [
          { "identifier": "seed", "type": "question", "title": "Hidden", "hidden": true, "initial": true, "answerFormat": { "type": "boolean" } }
        ] }
        """)
        let walker = Walker(task)
        #expect(walker.run.isFinished)
        #expect(walker.result.stepResult("seed")?.results.first?.answer == .boolean(true))
    }
}
