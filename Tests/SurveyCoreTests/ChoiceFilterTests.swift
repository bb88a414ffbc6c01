import Foundation
import JSON
import SurveyCore
import SurveyTestSupport
import Testing

/// A choice's `visibleIf`: judged on the answers before its step, it hides the choice from the
/// page and from what a submission may name.
@Suite("Choices shown on a condition")
struct ChoiceFilterTests {
    static let survey = """
    { "identifier": "cascade", "steps": [
      { "type": "question", "identifier": "region", "question": "Region",
        "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
          { "text": "North", "value": "north" }, { "text": "South", "value": "south" } ] } },
      { "type": "question", "identifier": "district", "question": "District",
        "answerFormat": { "type": "valuePicker", "choices": [
          { "text": "North One", "value": "n1", "visibleIf": { "result": "region", "choice": "north" } },
          { "text": "South One", "value": "s1", "visibleIf": { "result": "region", "choice": "south" } },
          { "text": "Unsure", "value": "unsure" } ] } } ] }
    """

    @Test("Only the choices whose condition holds are offered, and only those are taken")
    func filters() throws {
        let task = try loadSurvey(Self.survey)
        var walker = Walker(task)
        #expect(walker.next(["region": "south"]).isEmpty)
        let step = try #require(task.step("district"))
        let format = try #require(step.questions.first?.answerFormat)
        #expect(walker.navigator.hiddenChoices(of: format, step: step, visit: walker.run.cursor, in: walker.run) == [0])
        #expect(walker.next(["district": "n1"]).map(\.field) == ["district"])
        #expect(walker.next(["district": "s1"]).isEmpty)
        #expect(walker.run.isFinished)
    }

    @Test("The condition is kept when the survey is written back")
    func writtenBack() throws {
        let task = try loadSurvey(Self.survey)
        let again = try loadSurvey(JSONWriter.string(task.json))
        #expect(again == task)
        guard case .valuePicker(let picker)? = again.step("district")?.questions.first?.answerFormat else { Issue.record("district"); return }
        #expect(picker.choices.map { $0.visibleIf != nil } == [true, true, false])
    }

    @Test("A condition on its own step's answer, or on a result that does not exist, is refused")
    func refusals() throws {
        let own = Self.survey.replacingOccurrences(of: "\"result\": \"region\", \"choice\": \"north\"", with: "\"result\": \"district\", \"isNil\": true")
        let (ownTask, ownFindings) = SurveyLoader.diagnose(Data(own.utf8))
        #expect(ownTask == nil)
        #expect(ownFindings.contains { $0.isError && $0.path.description == "$.steps[1].answerFormat.choices[0].visibleIf" && $0.message.contains("its own step") })
        let unknown = Self.survey.replacingOccurrences(of: "\"result\": \"region\", \"choice\": \"south\"", with: "\"result\": \"nowhere\", \"choice\": \"south\"")
        let (unknownTask, unknownFindings) = SurveyLoader.diagnose(Data(unknown.utf8))
        #expect(unknownTask == nil)
        #expect(unknownFindings.contains { $0.isError && $0.path.description.hasPrefix("$.steps[1].answerFormat.choices[1].visibleIf") })
    }

    @Test("A scripted walk (the preview's jump, simulate --to) naming a hidden choice takes the first one shown")
    func scriptedWalk() throws {
        let survey = Self.survey.replacingOccurrences(of: "{ \"text\": \"Unsure\", \"value\": \"unsure\" } ] } } ] }",
                                                      with: "{ \"text\": \"Unsure\", \"value\": \"unsure\" } ] } },\n { \"type\": \"instruction\", \"identifier\": \"after\", \"title\": \"After\" } ] }")
        let task = try loadSurvey(survey)
        let navigator = Navigator(task: task)
        guard case .object(let script) = try JSONParser.parse(Data(#"{"region": {"region": "south"}, "district": {"district": "n1"}}"#.utf8)) else {
            Issue.record("the script is not an object")
            return
        }
        guard case .arrived(let run) = navigator.walk(script, to: "after", from: referenceNow) else {
            Issue.record("the walk did not arrive")
            return
        }
        #expect(navigator.result(of: run, now: referenceNow).questionResult(ResultSelector("district"))?.answer == .choices([.string("s1")]))
    }
}
