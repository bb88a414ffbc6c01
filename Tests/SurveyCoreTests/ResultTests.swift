import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Results")
struct ResultTests {
    static let survey = """
        {"identifier": "fever-check", "steps": [
          {"identifier": "intro", "type": "instruction"},
          {"identifier": "fever", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "vitals", "type": "form", "items": [
            {"identifier": "temp", "answerFormat": {"type": "numeric", "unit": "Cel", "displayUnit": "°C"}},
            {"identifier": "onset", "answerFormat": {"type": "date"}},
            {"identifier": "pain", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10, "showDontKnowButton": true}}]},
          {"identifier": "done", "type": "completion"}]}
        """

    func finishedWalker() throws -> Walker {
        var walker = Walker(try loadSurvey(Self.survey))
        walker.next()
        walker.next(["fever": "true"])
        walker.next(["temp": "38.2", "onset.day": "19", "onset.month": "11", "onset.year": "2026", "pain.dontKnow": "1"])
        return walker
    }

    @Test("The result follows spec §5: task, step and question results with dates on every level")
    func specShape() throws {
        let walker = try finishedWalker()
        let json = walker.result.json(in: utc)
        guard case .object(let task) = json, case .array(let steps)? = task["results"] else {
            Issue.record("not a task result")
            return
        }
        #expect(task["identifier"] == .string("fever-check"))
        #expect(task["taskRunUUID"] == .string("9a1c0000-0000-4000-8000-000000000001"))
        #expect(task["finishReason"] == .string("completed"))
        #expect(task["startDate"] == .string("2026-11-21T10:00:00+00:00"))
        try #require(steps.count == 4)
        guard case .object(let intro) = steps[0], case .object(let vitals) = steps[2], case .array(let items)? = vitals["results"] else {
            Issue.record("unexpected step results")
            return
        }
        #expect(intro["results"] == .array([]))
        #expect(intro["startDate"] == .string("2026-11-21T10:00:00+00:00"))
        #expect(intro["endDate"] == .string("2026-11-21T10:00:01+00:00"))
        try #require(items.count == 3)
        #expect(items[0] == .object([
            "type": .string("numeric"), "identifier": .string("temp"),
            "startDate": .string("2026-11-21T10:00:02+00:00"), "endDate": .string("2026-11-21T10:00:03+00:00"),
            "unit": .string("Cel"), "displayUnit": .string("°C"), "numericAnswer": .number(38.2),
        ]))
        guard case .object(let onset) = items[1], case .object(let pain) = items[2] else {
            Issue.record("the onset and pain results are not objects: \(items)")
            return
        }
        #expect(onset["dateAnswer"] == .string("2026-11-19"))
        #expect(onset["timeZone"] == .string(utc.identifier))
        #expect(pain["noAnswerType"] == .string("dontKnow"))
        #expect(pain["scaleAnswer"] == nil)
    }

    @Test("The ResearchKit export uses ResearchKit's class names and date format")
    func researchKitShape() throws {
        let walker = try finishedWalker()
        guard case .object(let task) = walker.result.researchKitJSON(in: utc), case .array(let steps)? = task["results"],
              case .object(let fever) = steps[1], case .array(let questions)? = fever["results"], case .object(let answer) = questions[0] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(task["_class"] == .string("ORKTaskResult"))
        #expect(task["startDate"] == .string("2026-11-21T10:00:00+0000"))
        #expect(fever["_class"] == .string("ORKStepResult"))
        #expect(answer["_class"] == .string("ORKBooleanQuestionResult"))
        #expect(answer["booleanAnswer"] == .number(1))
        #expect(answer["questionType"] == .number(7))
    }

    @Test("Date-and-time answers carry the offset of the zone they were read in")
    func dateTimeOffset() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "timeZone": "America/New_York", "steps": [
              {"identifier": "when", "type": "question", "answerFormat": {"type": "date", "style": "dateAndTime"}}]}
            """)
        let navigator = Navigator(task: task)
        #expect(navigator.timeZone.identifier == "America/New_York")
        var run = navigator.start(now: referenceNow)
        let context = AnswerContext(language: "en", now: referenceNow, timeZone: navigator.timeZone)
        let fields = FormFields(["when.day": ["1"], "when.month": ["7"], "when.year": ["2026"], "when.time": ["14:30"]])
        guard case .accepted(let next) = navigator.answer(run, visit: 0, fields: fields, context: context) else {
            Issue.record("refused")
            return
        }
        run = next
        let result = navigator.result(of: run, now: referenceNow)
        guard case .object(let step) = result.json(in: navigator.timeZone), case .array(let steps)? = step["results"],
              case .object(let first) = steps[0], case .array(let questions)? = first["results"], case .object(let answer) = questions[0] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(answer["dateAnswer"] == .string("2026-07-01T14:30:00-04:00"))
        #expect(answer["timeZone"] == .string("America/New_York"))
    }
}
