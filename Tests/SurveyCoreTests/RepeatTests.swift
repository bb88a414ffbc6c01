import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// A repeating form: instances saved to a list, add another, Change, Remove with its
/// confirmation, the limits, Back, rules over any, all or the count, and the result's shape.
@Suite("Repeating forms")
struct RepeatTests {
    static let survey = """
        {"identifier": "meds", "steps": [
          {"identifier": "intro", "type": "instruction", "title": "Hello"},
          {"identifier": "meds", "type": "form", "title": "Medicines",
           "repeat": {"label": "Medicine", "minimum": 1, "maximum": 3, "summary": "name"},
           "items": [
            {"identifier": "name", "text": "Name", "optional": false, "answerFormat": {"type": "text"}},
            {"identifier": "dose", "text": "Dose of ${meds.name|it}", "optional": false, "visibleIf": {"result": "meds.name", "answered": true},
             "answerFormat": {"type": "numeric", "style": "integer", "minimum": 0}}]},
          {"identifier": "many", "type": "instruction", "title": "Many: ${meds}"},
          {"identifier": "big", "type": "instruction", "title": "A big dose"},
          {"identifier": "end", "type": "instruction", "title": "End"}],
         "skipRules": {"many": {"result": "meds", "maximum": 1},
                       "big": {"not": {"result": "meds.dose", "minimum": 100, "instances": "all"}}}}
        """

    func context(_ now: Date) -> AnswerContext { AnswerContext(language: "en", now: now, timeZone: utc) }

    func post(_ navigator: Navigator, _ run: TaskRun, _ fields: [(String, String)], at now: Date) -> SubmissionOutcome {
        navigator.answer(run, visit: run.cursor, fields: FormFields(pairs: fields), context: context(now))
    }

    func accepted(_ outcome: SubmissionOutcome, sourceLocation: SourceLocation = #_sourceLocation) throws -> TaskRun {
        guard case .accepted(let run) = outcome else {
            Issue.record("refused: \(outcome)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return run
    }

    /// A run standing on the list after the given instances.
    func withInstances(_ doses: [(String, String)]) throws -> (Navigator, TaskRun) {
        let navigator = Navigator(task: try loadSurvey(Self.survey), timeZone: utc)
        var run = navigator.start(now: referenceNow)
        run = try accepted(post(navigator, run, [], at: referenceNow))
        #expect(run.current?.repeatPlace == .instance(0), "a form that needs an instance starts on the first")
        for (position, (name, dose)) in doses.enumerated() {
            if position > 0 { run = try accepted(post(navigator, run, [("_another", "yes")], at: referenceNow)) }
            run = try accepted(post(navigator, run, [("name", name)], at: referenceNow))
            #expect(run.current?.page == 1)
            run = try accepted(post(navigator, run, [("dose", dose)], at: referenceNow))
            #expect(run.current?.repeatPlace == .list)
            #expect(run.current?.instanceCount == position + 1)
        }
        return (navigator, run)
    }

    @Test("Instances are saved to the list; No leaves the step, and the result holds each instance")
    func addAndFinish() throws {
        var (navigator, run) = try withInstances([("Aspirin", "75"), ("Ibuprofen", "200")])
        run = try accepted(post(navigator, run, [("_another", "no")], at: referenceNow))
        #expect(run.current?.stepIdentifier == "many")
        let result = navigator.result(of: run, now: referenceNow)
        let step = try #require(result.stepResult("meds"))
        #expect(step.results.isEmpty)
        #expect(step.instances?.map { $0.map(\.answer) } == [[.text("Aspirin"), .numeric(75)], [.text("Ibuprofen"), .numeric(200)]])
        let json = result.json(in: utc)
        #expect(pick(json, "results", 1, "instances", 1, "index") == .number(2))
        #expect(pick(json, "results", 1, "instances", 1, "results", 0, "textAnswer") == .string("Ibuprofen"))
        let researchKit = result.researchKitJSON(in: utc)
        #expect(pick(researchKit, "results", 1, "identifier") == .string("meds.1"))
        #expect(pick(researchKit, "results", 2, "identifier") == .string("meds.2"))
    }

    @Test("Each instance's answers start when the instance was opened, not when the step was")
    func instanceTimings() throws {
        let navigator = Navigator(task: try loadSurvey(Self.survey), timeZone: utc)
        var run = navigator.start(now: referenceNow)
        run = try accepted(post(navigator, run, [], at: referenceNow))
        let opened = referenceNow.addingTimeInterval(10)
        run = try accepted(post(navigator, run, [("name", "A")], at: opened))
        run = try accepted(post(navigator, run, [("dose", "1")], at: opened.addingTimeInterval(5)))
        let second = opened.addingTimeInterval(60)
        run = try accepted(navigator.act(.another, on: run, visit: run.cursor, fields: FormFields(pairs: [("_another", "yes")]), now: second))
        run = try accepted(post(navigator, run, [("name", "B")], at: second.addingTimeInterval(3)))
        run = try accepted(post(navigator, run, [("dose", "2")], at: second.addingTimeInterval(7)))
        let instances = try #require(run.current?.instances)
        #expect(instances[0].map(\.startDate) == [referenceNow, referenceNow], "the first instance opened with the step")
        #expect(instances[1].map(\.startDate) == [second, second])
        #expect(instances[1].map(\.endDate) == [second.addingTimeInterval(3), second.addingTimeInterval(7)])
    }

    @Test("The list needs a yes or no, and at least the minimum; at the maximum it asks no more")
    func listLimits() throws {
        var (navigator, run) = try withInstances([("A", "1")])
        guard case .rejected(let issues) = post(navigator, run, [], at: referenceNow) else { throw CancellationError() }
        #expect(issues.map(\.field) == ["_another"])
        (navigator, run) = try withInstances([("A", "1"), ("B", "2"), ("C", "3")])
        #expect(navigator.act(.another, on: run, visit: run.cursor, fields: FormFields(pairs: [("_another", "yes")]), now: referenceNow)
            .acceptedRun?.current?.stepIdentifier == "many", "at the maximum Continue leaves the step")
        // Removing the only instance of a list that needs one asks for one at once; finishing without is refused.
        (navigator, run) = try withInstances([("A", "1")])
        run = try accepted(navigator.act(.remove(0), on: run, visit: run.cursor, fields: FormFields(), now: referenceNow))
        #expect(run.current?.repeatPlace == .removing(0))
        run = try accepted(navigator.act(.confirmRemove(0, true), on: run, visit: run.cursor, fields: FormFields(), now: referenceNow))
        #expect(run.current?.instanceCount == 0 && run.current?.repeatPlace == .instance(0))
        var empty = run
        empty.visits[empty.cursor].instance = nil
        guard case .rejected(let few) = navigator.act(.another, on: empty, visit: empty.cursor, fields: FormFields(pairs: [("_another", "no")]),
                                                      now: referenceNow) else { throw CancellationError() }
        #expect(few.map(\.problem) == [.instancesAtLeast(1)])
    }

    @Test("Change fills the instance again and keeps the change; No on a removal keeps the instance")
    func changeAndKeep() throws {
        var (navigator, run) = try withInstances([("A", "1"), ("B", "2")])
        run = try accepted(navigator.act(.change(0), on: run, visit: run.cursor, fields: FormFields(), now: referenceNow))
        #expect(run.current?.repeatPlace == .instance(0) && run.current?.results.first?.answer == .text("A"))
        run = try accepted(post(navigator, run, [("name", "Z")], at: referenceNow))
        run = try accepted(post(navigator, run, [("dose", "9")], at: referenceNow))
        #expect(run.current?.instances?.map { $0.first?.answer } == [.text("Z"), .text("B")])
        run = try accepted(navigator.act(.remove(1), on: run, visit: run.cursor, fields: FormFields(), now: referenceNow))
        run = try accepted(post(navigator, run, [], at: referenceNow))
        #expect(run.current?.repeatPlace == .list && run.current?.instanceCount == 2, "Enter on the confirmation keeps the instance")
    }

    @Test("Back: an instance's first page goes to the list, the list to the step before; a stale instance page edits its own instance")
    func backAndFocus() throws {
        var (navigator, run) = try withInstances([("A", "1")])
        run = try accepted(post(navigator, run, [("_another", "yes")], at: referenceNow))
        #expect(run.current?.repeatPlace == .instance(1))
        run = navigator.back(run, now: referenceNow)
        #expect(run.current?.repeatPlace == .list && run.current?.instanceCount == 1)
        run = navigator.back(run, now: referenceNow)
        #expect(run.current?.stepIdentifier == "intro")
        run = try accepted(post(navigator, run, [], at: referenceNow))
        #expect(run.current?.repeatPlace == .list && run.current?.instanceCount == 1, "coming back shows the list kept")
        // A page of instance 0 sent again from the browser's history edits instance 0.
        let focused = navigator.focus(run, visit: run.cursor, instance: 0)
        #expect(focused.current?.repeatPlace == .instance(0) && focused.current?.results.first?.answer == .text("A"))
        #expect(navigator.skip(run, visit: run.cursor, now: referenceNow) == run, "a repeating form has no Skip")
    }

    @Test("Rules test any instance, every instance, or the count; piped text inside an instance reads its answers")
    func rulesAndCount() throws {
        var (navigator, run) = try withInstances([("A", "150"), ("B", "2")])
        run = try accepted(post(navigator, run, [("_another", "no")], at: referenceNow))
        #expect(run.current?.stepIdentifier == "many", "two instances: the count is above 1")
        let result = navigator.result(of: run, now: referenceNow)
        #expect(result.questionResult(ResultSelector(step: "meds", item: nil))?.answer == .numeric(2))
        let any = Predicate.range(ResultSelector(step: "meds", item: "dose"), minimum: .number(100), maximum: nil)
        #expect(any.evaluate(on: result, timeZone: utc))
        #expect(!Predicate.everyInstance(any).evaluate(on: result, timeZone: utc))
        run = try accepted(post(navigator, run, [], at: referenceNow))
        #expect(run.current?.stepIdentifier == "end", "not every dose is 100 or more: the big-dose step is skipped")
        // One instance of 150: every instance passes, and the count skips "many".
        (navigator, run) = try withInstances([("A", "150")])
        run = try accepted(post(navigator, run, [("_another", "no")], at: referenceNow))
        #expect(run.current?.stepIdentifier == "big")
    }

    @Test("The checker refuses bad limits, an unknown summary, instances on a plain question, a count read inside its form, and a grid whose rows differ")
    func checks() {
        func messages(_ json: String) -> String {
            do {
                _ = try SurveyLoader.load(Data(json.utf8))
                return ""
            } catch {
                return error.description
            }
        }
        let limits = messages("""
            {"identifier": "x", "steps": [{"identifier": "f", "type": "form", "repeat": {"label": "L", "minimum": 3, "maximum": 2, "summary": "nope"},
             "items": [{"identifier": "a", "answerFormat": {"type": "text"}}]}]}
            """)
        #expect(limits.contains("$.steps[0].repeat.maximum") && limits.contains("$.steps[0].repeat.summary") == false || limits.contains("maximum"))
        let summary = messages("""
            {"identifier": "x", "steps": [{"identifier": "f", "type": "form", "repeat": {"label": "L", "maximum": 2, "summary": "nope"},
             "items": [{"identifier": "a", "answerFormat": {"type": "text"}}]}]}
            """)
        #expect(summary.contains("$.steps[0].repeat.summary"))
        let quantifier = messages("""
            {"identifier": "x", "steps": [{"identifier": "q", "type": "question", "answerFormat": {"type": "text"}},
             {"identifier": "e", "type": "instruction"}], "skipRules": {"e": {"result": "q", "answered": true, "instances": "all"}}}
            """)
        #expect(quantifier.contains("\"instances\" goes with a test on an item of a repeating form"))
        let countInside = messages("""
            {"identifier": "x", "steps": [{"identifier": "f", "type": "form", "repeat": {"label": "L", "maximum": 2},
             "items": [{"identifier": "a", "answerFormat": {"type": "text"}},
                       {"identifier": "b", "visibleIf": {"result": "f", "minimum": 1}, "answerFormat": {"type": "text"}}]}]}
            """)
        #expect(countInside.contains("counts the form's instances"))
        let grid = messages("""
            {"identifier": "x", "steps": [{"identifier": "g", "type": "form", "grid": true, "items": [
              {"identifier": "a", "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [{"text": "No", "value": 0}, {"text": "Yes", "value": 1}]}},
              {"identifier": "b", "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [{"text": "No", "value": 0}, {"text": "Si", "value": 1}]}},
              {"identifier": "c", "answerFormat": {"type": "text"}}]}]}
            """)
        #expect(grid.contains("$.steps[0].items[1].answerFormat.choices") && grid.contains("\"b\" differs"))
        #expect(grid.contains("$.steps[0].items[2].answerFormat") && grid.contains("\"c\" is a text"))
    }
}

extension SubmissionOutcome {
    var acceptedRun: TaskRun? {
        if case .accepted(let run) = self { return run }
        return nil
    }
}
