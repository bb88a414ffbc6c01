import Foundation
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("The navigator")
struct NavigatorTests {
    static let triage = """
        {"identifier": "triage", "steps": [
          {"identifier": "intro", "type": "instruction", "title": "Hello"},
          {"identifier": "fever", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
          {"identifier": "temp", "type": "question", "optional": false, "answerFormat": {"type": "numeric", "minimum": 34, "maximum": 43}},
          {"identifier": "cough", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "urgent", "type": "completion"},
          {"identifier": "fine", "type": "completion"}],
         "navigationRules": {
           "fever": {"type": "predicate", "rules": [{"if": {"result": "fever", "equals": false}, "destination": "cough"}]},
           "temp": {"type": "predicate", "rules": [{"if": {"result": "temp", "minimum": 39}, "destination": "urgent"}]},
           "cough": {"type": "direct", "destination": "fine"}}}
        """

    @Test("Predicate rules send the participant down a branch; a completion step completes the run")
    func branchToCompletion() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        #expect(walker.currentIdentifier == "intro")
        walker.next()
        walker.next(["fever": "true"])
        #expect(walker.currentIdentifier == "temp")
        walker.next(["temp": "39.5"])
        #expect(walker.run.finishReason == .completed)
        #expect(walker.pathIdentifiers == ["intro", "fever", "temp", "urgent"])
        #expect(walker.result.results.map(\.identifier) == ["intro", "fever", "temp", "urgent"])
    }

    @Test("The default of a predicate rule is the next step in the array")
    func defaultIsNextStep() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "true"])
        walker.next(["temp": "37"])
        #expect(walker.currentIdentifier == "cough")
        walker.next(["cough": "false"])
        #expect(walker.pathIdentifiers.last == "fine")
        #expect(walker.run.isFinished)
    }

    @Test("Back after a branch follows the path taken, not the array")
    func backAfterBranch() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "false"])
        #expect(walker.currentIdentifier == "cough")
        walker.back()
        #expect(walker.currentIdentifier == "fever")
        walker.back()
        #expect(walker.currentIdentifier == "intro")
        #expect(!walker.navigator.canGoBack(walker.run))
    }

    @Test("Changing an earlier answer that moves the path drops the answers of steps off the path")
    func changedAnswerDropsStaleSteps() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "true"])
        #expect(walker.currentIdentifier == "temp")
        walker.back()
        #expect(walker.currentIdentifier == "fever")
        // The temp visit is kept while it may still be on the path.
        #expect(walker.run.visits.map(\.stepIdentifier) == ["intro", "fever", "temp"])
        walker.next(["fever": "false"])
        #expect(walker.currentIdentifier == "cough")
        #expect(!walker.run.visits.contains { $0.stepIdentifier == "temp" })
        walker.next(["cough": "true"])
        #expect(walker.result.stepResult("temp") == nil)
        #expect(walker.result.results.map(\.identifier) == ["intro", "fever", "cough", "fine"])
    }

    @Test("Going back and forward on the same path keeps later answers to fill the form")
    func backAndForwardKeepsAnswers() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "true"])
        walker.back()
        walker.back()
        walker.next()
        #expect(walker.currentIdentifier == "fever")
        #expect(walker.run.current?.result("fever")?.answer == .boolean(true))
        walker.next(["fever": "true"])
        #expect(walker.currentIdentifier == "temp")
    }

    @Test("A resubmitted old form edits that step instead of adding a result")
    func resubmittedOldFormEdits() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "true"])
        walker.next(["temp": "37"])
        #expect(walker.currentIdentifier == "cough")
        // The browser's Back shows the fever page again; its form posts visit 1.
        #expect(walker.edit(visit: 1, ["fever": "true"]).isEmpty)
        #expect(walker.currentIdentifier == "temp")
        #expect(walker.run.visits.filter { $0.stepIdentifier == "fever" }.count == 1)
        #expect(walker.run.visits.map(\.stepIdentifier) == ["intro", "fever", "temp", "cough"])
    }

    static let skipping = """
        {"identifier": "skipping", "steps": [
          {"identifier": "smoker", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
          {"identifier": "packs", "type": "question", "answerFormat": {"type": "numeric"}},
          {"identifier": "quit", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "exercise", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "end", "type": "completion"}],
         "skipRules": {"packs": {"result": "smoker", "equals": false}},
         "navigationRules": {"packs": {"type": "direct", "destination": "exercise"}}}
        """

    @Test("A skipped step's own navigation rule then applies, as in ResearchKit")
    func skippedStepRuleApplies() throws {
        var walker = Walker(try loadSurvey(Self.skipping))
        walker.next(["smoker": "false"])
        // packs is skipped; its rule sends the participant past quit to exercise.
        #expect(walker.currentIdentifier == "exercise")
        walker.next(["exercise": "true"])
        #expect(walker.result.results.map(\.identifier) == ["smoker", "exercise", "end"])
        // A step passed over by a skip rule has no step result.
        #expect(walker.result.stepResult("packs") == nil)
    }

    @Test("Skip rules apply to the first step too")
    func skipRuleOnFirstStep() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "instruction"},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}}],
             "skipRules": {"a": {"not": {"result": "b", "isNil": true}}}}
            """)
        // b has no result yet, so "not isNil" on it is true: a is skipped.
        let walker = Walker(task)
        #expect(walker.currentIdentifier == "b")
    }

    @Test("A loop back visits a step again and keeps both visits in the result")
    func loopBack() throws {
        let task = try loadSurvey("""
            {"identifier": "loop", "steps": [
              {"identifier": "dose", "type": "question", "optional": false, "answerFormat": {"type": "numeric", "style": "integer"}},
              {"identifier": "more", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
              {"identifier": "end", "type": "completion"}],
             "navigationRules": {"more": {"type": "predicate", "rules": [{"if": {"result": "more", "equals": true}, "destination": "dose"}]}}}
            """)
        var walker = Walker(task)
        walker.next(["dose": "1"])
        walker.next(["more": "true"])
        #expect(walker.currentIdentifier == "dose")
        // A new visit starts empty: the previous loop's answer does not fill it.
        #expect(walker.run.current?.results.isEmpty == true)
        walker.next(["dose": "2"])
        walker.back()
        #expect(walker.currentIdentifier == "dose")
        #expect(walker.run.cursor == 2)
        walker.next(["dose": "2"])
        walker.next(["more": "false"])
        #expect(walker.run.finishReason == .completed)
        let doses = walker.result.results.filter { $0.identifier == "dose" }.compactMap { $0.results.first?.answer }
        #expect(doses == [.numeric(1), .numeric(2)])
        // Predicates read the latest visit.
        #expect(walker.result.questionResult(ResultSelector(step: "more", item: nil))?.answer == .boolean(false))
    }

    @Test("$end from a form ends the run with no further step")
    func endFromForm() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "consent", "type": "form", "items": [
                {"identifier": "agree", "optional": false, "answerFormat": {"type": "boolean"}},
                {"identifier": "name", "answerFormat": {"type": "text"}}]},
              {"identifier": "q", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "done", "type": "completion"}],
             "navigationRules": {"consent": {"type": "predicate", "rules": [{"if": {"result": "consent.agree", "equals": false}, "destination": "$end"}]}}}
            """)
        var walker = Walker(task)
        walker.next(["agree": "false"])
        #expect(walker.run.finishReason == .completed)
        #expect(walker.run.endDate != nil)
        let result = walker.result
        #expect(result.results.map(\.identifier) == ["consent"])
        // An optional item left empty keeps its result with no answer.
        #expect(result.results[0].results.map(\.identifier) == ["agree", "name"])
        #expect(result.results[0].results[1].answer == nil)
    }

    @Test("Progress counts the steps ResearchKit counts", arguments: [true, false])
    func progressRules(reported: Bool) throws {
        let task = try loadSurvey("""
            {"identifier": "t", "shouldReportProgress": \(reported), "steps": [
              {"identifier": "intro", "type": "instruction"},
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "hidden", "type": "question", "showsProgress": false, "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "c", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "done", "type": "completion"}],
             "skipRules": {"c": {"result": "a", "equals": true}}}
            """)
        let navigator = Navigator(task: task, timeZone: utc)
        let labels = task.steps.map { navigator.progress(of: $0)?.description }
        if reported {
            #expect(labels == [nil, "1 of 3", nil, "2 of 3", "3 of 3", nil])
        } else {
            #expect(labels.allSatisfy { $0 == nil })
        }
    }

    @Test("An ordered task reports progress by default, a navigable one does not")
    func progressDefaults() throws {
        let ordered = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}}]}
            """)
        #expect(Navigator(task: ordered).progress(of: ordered.steps[1])?.description == "2 of 2")
        let navigable = try loadSurvey(Self.triage)
        #expect(Navigator(task: navigable).progress(of: navigable.steps[1]) == nil)
    }

    @Test("Get Started after the opening instructions, Next in the middle, Done where nothing follows")
    func continueLabels() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "welcome", "type": "instruction"},
              {"identifier": "how", "type": "instruction"},
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}}]}
            """)
        var walker = Walker(task)
        #expect(walker.navigator.continueLabel(walker.run) == .next)
        walker.next()
        #expect(walker.navigator.continueLabel(walker.run) == .getStarted)
        walker.next()
        #expect(walker.navigator.continueLabel(walker.run) == .next)
        walker.next()
        #expect(walker.navigator.continueLabel(walker.run) == .done)
    }

    @Test("Skip records every question of the step with no answer")
    func skipButton() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "f", "type": "form", "items": [
                {"identifier": "x", "optional": false, "answerFormat": {"type": "boolean"}},
                {"identifier": "y", "answerFormat": {"type": "text"}}]},
              {"identifier": "done", "type": "completion"}]}
            """)
        var walker = Walker(task)
        walker.skip()
        #expect(walker.run.isFinished)
        #expect(walker.result.results[0].results.map(\.identifier) == ["x", "y"])
        #expect(walker.result.results[0].results.allSatisfy { $0.answer == nil })
    }

    @Test("Skip is refused on a step that is not optional")
    func skipRefusedWhenRequired() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        let before = walker.run
        walker.skip()
        #expect(walker.run == before)
    }

    @Test("A required question left empty is refused; an all-optional form accepts nothing")
    func requiredAndOptional() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        let issues = walker.next([:])
        #expect(issues.map(\.code) == [.required])
        #expect(issues.map(\.field) == ["fever"])
        #expect(walker.currentIdentifier == "fever")
        walker.next(["fever": "false"])
        // cough is optional: an empty submission is accepted with a result and no answer.
        #expect(walker.next([:]).isEmpty)
        #expect(walker.result.stepResult("cough")?.results.first?.answer == nil)
        #expect(walker.result.stepResult("cough")?.results.count == 1)
    }

    static let visibility = """
        {"identifier": "t", "steps": [
          {"identifier": "smoker", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
          {"identifier": "habits", "type": "form", "items": [
            {"sectionTitle": "Smoking"},
            {"identifier": "packs", "optional": false, "visibleIf": {"result": "smoker", "equals": true}, "answerFormat": {"type": "numeric"}},
            {"identifier": "alcohol", "optional": false, "answerFormat": {"type": "boolean"}},
            {"sectionTitle": "Drinking"},
            {"identifier": "units", "optional": false, "visibleIf": {"result": "habits.alcohol", "equals": true}, "answerFormat": {"type": "numeric"}}]},
          {"identifier": "done", "type": "completion"}]}
        """

    @Test("A hidden item is not required and leaves no result")
    func hiddenItemLeavesNoResult() throws {
        var walker = Walker(try loadSurvey(Self.visibility))
        walker.next(["smoker": "false"])
        let step = try #require(walker.navigator.currentStep(walker.run))
        let visible = walker.navigator.visibleQuestions(of: step, page: 0, visit: walker.run.current!, in: walker.run, index: walker.run.cursor)
        #expect(visible.map(\.identifier) == ["alcohol"])
        walker.next(["alcohol": "false"])
        #expect(walker.run.isFinished)
        #expect(walker.result.stepResult("habits")?.results.map(\.identifier) == ["alcohol"])
    }

    @Test("A form splits where an item depends on one above it; Back returns to the first page")
    func formSplitsIntoPages() throws {
        var walker = Walker(try loadSurvey(Self.visibility))
        walker.next(["smoker": "true"])
        let step = try #require(walker.navigator.currentStep(walker.run))
        #expect(walker.navigator.pages(of: step) == [0..<3, 3..<5])
        walker.next(["packs": "2", "alcohol": "true"])
        #expect(walker.currentIdentifier == "habits")
        #expect(walker.run.current?.page == 1)
        #expect(walker.navigator.continueLabel(walker.run) == .next)
        let items = walker.navigator.visibleItems(of: step, page: 1, visit: walker.run.current!, in: walker.run, index: walker.run.cursor)
        #expect(items.count == 2)
        walker.back()
        #expect(walker.run.current?.page == 0)
        walker.next(["packs": "2", "alcohol": "false"])
        // With alcohol false the second page has nothing to show: the step is done.
        #expect(walker.run.isFinished)
        #expect(walker.result.stepResult("habits")?.results.map(\.identifier) == ["packs", "alcohol"])
    }

    @Test("Editing from a review returns to the review when the path is unchanged")
    func reviewChangeLinkReturns() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "text"}},
              {"identifier": "review", "type": "review"},
              {"identifier": "done", "type": "completion"}]}
            """)
        var walker = Walker(task)
        walker.next(["a": "true"])
        walker.next(["b": "first"])
        #expect(walker.currentIdentifier == "review")
        #expect(walker.edit(visit: 0, ["a": "false"], returnToCurrent: true).isEmpty)
        #expect(walker.currentIdentifier == "review")
        #expect(walker.result.stepResult("a")?.results.first?.answer == .boolean(false))
        #expect(walker.result.stepResult("b")?.results.first?.answer == .text("first"))
    }

    @Test("A finished run does not move")
    func finishedRunIsFrozen() throws {
        var walker = Walker(try loadSurvey(Self.triage))
        walker.next()
        walker.next(["fever": "false"])
        walker.next(["cough": "true"])
        #expect(walker.run.isFinished)
        let finished = walker.run
        walker.back()
        #expect(walker.run == finished)
        #expect(walker.edit(visit: 1, ["fever": "true"]).isEmpty)
        #expect(walker.run == finished)
    }

    @Test("A run survives encoding and decoding unchanged")
    func runIsCodable() throws {
        var walker = Walker(try loadSurvey(Self.visibility))
        walker.next(["smoker": "true"])
        walker.next(["packs": "2", "alcohol": "true"])
        let data = try JSONEncoder().encode(walker.run)
        #expect(try JSONDecoder().decode(TaskRun.self, from: data) == walker.run)
    }
}
