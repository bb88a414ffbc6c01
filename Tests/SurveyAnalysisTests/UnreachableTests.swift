import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

@Suite("Steps no answers reach, and why")
struct UnreachableTests {
    /// A survey of a boolean `b`, a number `x` from 0 to 10 and a target `t` after `gate`,
    /// which leads to `t` only when `condition` holds and ends the survey otherwise.
    static func gated(_ condition: String) -> String {
        """
        {"identifier": "gated", "steps": [
          {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "x", "type": "question", "answerFormat": {"type": "numeric", "style": "integer", "minimum": 0, "maximum": 10}},
          {"identifier": "gate", "type": "instruction"},
          {"identifier": "t", "type": "instruction"}],
         "navigationRules": {"gate": {"type": "predicate", "rules": [{"if": \(condition), "destination": "t"}], "default": "$end"}}}
        """
    }

    static let b = ResultSelector("b")
    static let x = ResultSelector("x")

    /// `gated` with its rule's condition given as a predicate (some, like a minimum above the
    /// maximum, the loader would refuse).
    static func gated(_ condition: Predicate) throws -> SurveyTask {
        var task = try load(gated(#"{"result": "x", "equals": 1}"#))
        task.navigationRules = [("gate", .predicate(rules: [ConditionalDestination(if: condition, destination: .step("t"))], default: .end))]
        return task
    }

    @Test("A condition that can never hold makes its destination unreachable, with the conditions of the way there",
          arguments: [
            Predicate.range(x, minimum: .number(5), maximum: .number(3)),
            .all([.equals(b, .bool(true)), .equals(b, .bool(false))]),
            .all([.range(x, minimum: .number(4), maximum: nil), .not(.range(x, minimum: .number(3), maximum: nil))]),
            .all([.equals(x, .number(4)), .isNil(x, true)]),
            .range(x, minimum: .number(11), maximum: nil),
            .all([.not(.isNil(x, true)), .not(.isNil(x, false))]),
          ])
    func neverHolds(condition: Predicate) throws {
        let task = try Self.gated(condition)
        let reach = finder(task).reach("t")
        guard case .conditionsNeverHold(let conditions)? = reach.reason else {
            Issue.record("t is \(reach)")
            return
        }
        #expect(conditions == [condition])
        #expect(finder(task).reach("gate").witness != nil)
    }

    @Test("The same gate with a condition some answers meet is reachable, with those answers",
          arguments: [
            #"{"result": "x", "minimum": 3, "maximum": 5}"#,
            #"{"all": [{"result": "b", "equals": true}, {"not": {"result": "x", "minimum": 1}}]}"#,
            #"{"any": [{"result": "b", "isNil": true}, {"result": "x", "equals": 10}]}"#,
            #"{"not": {"result": "b", "equals": true}}"#,
          ])
    func someAnswersMeet(condition: String) throws {
        let task = try Self.load(Self.gated(condition))
        let witness = try #require(finder(task).reach("t").witness)
        #expect(witness.path == ["b", "x", "gate", "t"])
        #expect(replay(witness.answersFile, in: task, until: "t") == witness.path)
    }

    @Test("A step after $end, or after a completion step, has no path at all")
    func noPath() throws {
        let afterEnd = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "instruction"}],
             "navigationRules": {"a": {"type": "direct", "destination": "$end"}}}
            """)
        #expect(finder(afterEnd).reach("b").reason == .noPath)
        #expect(finder(afterEnd).reach("a").witness?.path == ["a"])
        let afterCompletion = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "done", "type": "completion"},
              {"identifier": "c", "type": "question", "answerFormat": {"type": "boolean"}}]}
            """)
        #expect(finder(afterCompletion).reach("c").reason == .noPath)
        #expect(finder(afterCompletion).reach("nowhere").reason == .noPath)
    }

    @Test("A completion step passed over by its skip rule moves on, so the step after it can be reached")
    func skippedCompletion() throws {
        let task = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "done", "type": "completion"},
              {"identifier": "c", "type": "question", "answerFormat": {"type": "boolean"}}],
             "skipRules": {"done": {"result": "a", "equals": true}}}
            """)
        let witness = try #require(finder(task).reach("c").witness)
        #expect(witness.path == ["a", "c"])
        #expect(witness.skipped.map(\.step) == ["done"])
        #expect(replay(witness.answersFile, in: task, until: "c") == ["a", "c"])
    }

    @Test("A step whose skip rule holds on every arrival is always skipped",
          arguments: [
            // The answer the rule needs is the only one that leads there.
            #"{"result": "b", "equals": true}"#,
            // A test on a step not on the path is false, so its negation always holds.
            #"{"not": {"result": "later", "equals": true}}"#,
          ])
    func alwaysSkipped(skip: String) throws {
        let task = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "s", "type": "instruction"},
              {"identifier": "later", "type": "question", "answerFormat": {"type": "boolean"}}],
             "navigationRules": {"b": {"type": "predicate", "rules": [{"if": {"result": "b", "equals": true}, "destination": "s"}],
                                       "default": "$end"}},
             "skipRules": {"s": \(skip)}}
            """)
        let reach = finder(task).reach("s")
        guard case .alwaysSkipped(let predicate)? = reach.reason else {
            Issue.record("s is \(reach)")
            return
        }
        #expect(predicate == task.skipRule(for: "s"))
        // Passed over, the skip rule's own moves still take the run on.
        #expect(finder(task).reach("later").witness?.skipped.map(\.step) == ["s"])
    }

    @Test("A test on a form item that is hidden is false, so a rule that needs its answer never fires")
    func hiddenItem() throws {
        let task = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "f", "type": "form", "items": [
                {"identifier": "smoke", "answerFormat": {"type": "boolean"}},
                {"identifier": "count", "answerFormat": {"type": "numeric", "style": "integer", "minimum": 0, "maximum": 80},
                 "visibleIf": {"result": "f.smoke", "equals": true}}]},
              {"identifier": "heavy", "type": "instruction"},
              {"identifier": "light", "type": "instruction"}],
             "navigationRules": {
               "f": {"type": "predicate", "rules": [
                 {"if": {"all": [{"result": "f.count", "minimum": 20}, {"result": "f.smoke", "equals": false}]}, "destination": "heavy"},
                 {"if": {"result": "f.count", "minimum": 20}, "destination": "heavy"}],
                 "default": "light"},
               "heavy": {"type": "direct", "destination": "$end"}}}
            """)
        let heavy = try #require(finder(task).reach("heavy").witness)
        #expect(heavy.moves.first?.kind == .rule(1))
        guard case .object(let fields)? = heavy.answers.first?.value else {
            Issue.record("No fields: \(heavy.answers)")
            return
        }
        #expect(fields["smoke"] == .string("true"))
        #expect(replay(heavy.answersFile, in: task, until: "heavy") == ["f", "heavy"])
        // The witness for `light` may leave the count hidden or low; either way the navigator agrees.
        let light = try #require(finder(task).reach("light").witness)
        #expect(replay(light.answersFile, in: task, until: "light") == ["f", "light"])
    }

    @Test("A required question that a rule needs left empty is reached by skipping only where the step may be skipped")
    func skippingAnOptionalStep() throws {
        let task = try Self.load("""
            {"identifier": "t", "steps": [
              {"identifier": "q", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "r", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
              {"identifier": "gate", "type": "instruction"},
              {"identifier": "nothing", "type": "instruction"},
              {"identifier": "never", "type": "instruction"}],
             "navigationRules": {"gate": {"type": "predicate", "rules": [
               {"if": {"result": "q", "isNil": true}, "destination": "nothing"},
               {"if": {"result": "r", "isNil": true}, "destination": "never"}], "default": "$end"},
               "nothing": {"type": "direct", "destination": "$end"}}}
            """)
        let nothing = try #require(finder(task).reach("nothing").witness)
        #expect(nothing.answers.first?.value == .string("$skip"))
        #expect(replay(nothing.answersFile, in: task, until: "nothing") == ["q", "r", "gate", "nothing"])
        guard case .conditionsNeverHold? = finder(task).reach("never").reason else {
            Issue.record("never is \(finder(task).reach("never"))")
            return
        }
    }

    static func load(_ json: String) throws -> SurveyTask {
        try loadSurvey(json)
    }
}

@Suite("Searching long surveys")
struct LongSurveyTests {
    /// A chain of `count` optional follow-ups: question `q{i}` leads to `f{i}` when answered
    /// yes and straight on otherwise, then a step `last` that needs `q0` yes and no at once.
    static func branches(_ count: Int) -> SurveyTask {
        var steps: [Step] = []
        var rules: [(stepIdentifier: String, rule: NavigationRule)] = []
        for position in 0..<count {
            let question = "q\(position)"
            let next: Destination = .step(position + 1 < count ? "q\(position + 1)" : "gate")
            steps.append(Step(identifier: question, kind: .question(QuestionContent(answerFormat: .boolean(BooleanFormat())))))
            steps.append(Step(identifier: "f\(position)", kind: .question(QuestionContent(answerFormat: .boolean(BooleanFormat())))))
            rules.append((question, .predicate(rules: [ConditionalDestination(if: .equals(ResultSelector(question), .bool(true)),
                                                                              destination: .step("f\(position)"))],
                                               default: next)))
            rules.append(("f\(position)", .direct(next)))
        }
        let first = ResultSelector("q0")
        steps += [Step(identifier: "gate", kind: .instruction), Step(identifier: "last", kind: .instruction),
                  Step(identifier: "reached", kind: .completion)]
        rules.append(("gate", .predicate(rules: [ConditionalDestination(if: .all([.equals(first, .bool(true)), .equals(first, .bool(false))]),
                                                                        destination: .step("last"))],
                                         default: .step("reached"))))
        return SurveyTask(identifier: "branches", steps: steps, navigationRules: rules)
    }

    @Test("Forty independent branches cost a path each, not one per combination")
    func independentBranches() {
        let task = Self.branches(40)
        let memo = SolverMemo()
        let finder = finder(task)
        let start = Date()
        let reached = finder.reach("reached")
        guard case .reachable(let witness) = reached else {
            Issue.record("reached is \(reached)")
            return
        }
        #expect(witness.path.count == 42)
        #expect(replay(witness.answersFile, in: task, until: "reached") == witness.path)
        let never = finder.search(for: "last", memo: memo)
        guard case .unreachable(.conditionsNeverHold) = never else {
            Issue.record("last is \(never)")
            return
        }
        #expect(!memo.exhausted)
        #expect(finder.reach("f39").witness != nil)
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
