import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The orders a run draws at its start: uniform over many runs, the same for the same run
/// identifier, pinned choices in place, and a block's steps taken in the run's order.
@Suite("Choice and block orders")
struct RandomizationTests {
    static let survey = """
        {"identifier": "orders", "blocks": [{"identifier": "blk", "steps": ["b1", "b2", "b3"]}],
         "steps": [
          {"identifier": "pet", "type": "question", "optional": false, "answerFormat": {"type": "textChoice", "style": "singleChoice",
           "shuffle": true, "choices": [{"text": "cat", "value": "cat"}, {"text": "dog", "value": "dog"}, {"text": "fish", "value": "fish"},
           {"text": "bird", "value": "bird"}, {"text": "None", "value": "none", "pinned": true}]}},
          {"identifier": "b1", "type": "instruction", "title": "one"},
          {"identifier": "b2", "type": "instruction", "title": "two"},
          {"identifier": "b3", "type": "instruction", "title": "three"},
          {"identifier": "after", "type": "instruction", "title": "after"}]}
        """

    /// Pearson's chi-square of counts against equal shares.
    static func chiSquare(_ counts: [Int]) -> Double {
        let expected = Double(counts.reduce(0, +)) / Double(counts.count)
        return counts.reduce(0) { $0 + pow(Double($1) - expected, 2) / expected }
    }

    @Test("Over 10,000 runs each free choice comes first about as often, and the pinned one is always last")
    func choiceOrdersAreUniform() throws {
        let navigator = Navigator(task: try loadSurvey(Self.survey), timeZone: utc)
        var first = [Int](repeating: 0, count: 4)
        var blockOrders: [[Int]: Int] = [:]
        for _ in 0..<10_000 {
            let run = navigator.start(uuid: UUID(), now: referenceNow, parameters: [:])
            let order = try #require(run.choiceOrders?["pet"])
            #expect(order.last == 4 && Set(order) == Set(0...4))
            first[order[0]] += 1
            blockOrders[try #require(run.blockOrders?["blk"]), default: 0] += 1
        }
        // The 0.1 % points of chi-square with 3 and 5 degrees of freedom.
        #expect(Self.chiSquare(first) < 16.27, "\(first)")
        #expect(blockOrders.count == 6 && Self.chiSquare(Array(blockOrders.values)) < 20.52, "\(blockOrders)")
    }

    @Test("The same run identifier draws the same orders; the written order needs none")
    func sameIdentifierSameOrders() throws {
        let navigator = Navigator(task: try loadSurvey(Self.survey), timeZone: utc)
        let id = UUID()
        let one = navigator.start(uuid: id, now: referenceNow, parameters: ["PID": "x"])
        let two = navigator.start(uuid: id, now: referenceNow.addingTimeInterval(5), parameters: [:])
        #expect(one.choiceOrders == two.choiceOrders && one.blockOrders == two.blockOrders)
        #expect(one.parameters == ["PID": "x"] && two.parameters == nil)
        #expect(navigator.start(uuid: id, now: referenceNow).choiceOrders == nil)
    }

    @Test("A block's steps come in the run's order, Back retraces it, and the result says which")
    func blockFollowsTheRunsOrder() throws {
        let task = try loadSurvey(Self.survey)
        var walker = Walker(task)
        walker.run = walker.navigator.start(uuid: UUID(), now: referenceNow, parameters: [:])
        let order = try #require(walker.run.blockOrders?["blk"])
        #expect(walker.next(["pet": "dog"]).isEmpty)
        var seen: [String] = []
        for _ in 0..<3 {
            seen.append(try #require(walker.run.current?.stepIdentifier))
            #expect(walker.next().isEmpty)
        }
        #expect(seen == order.map { ["b1", "b2", "b3"][$0] })
        #expect(walker.run.current?.stepIdentifier == "after")
        walker.back()
        #expect(walker.run.current?.stepIdentifier == seen[2])
        let result = walker.navigator.result(of: walker.run, now: walker.now)
        #expect(result.blockOrders == ["blk": seen])
        #expect(result.choiceOrders?["pet"]?.last == .string("none"))
    }

    @Test("The result's JSON carries the parameters and the orders drawn, as values and step identifiers")
    func resultJSONCarriesThem() throws {
        let navigator = Navigator(task: try loadSurvey(Self.survey), timeZone: utc)
        var run = navigator.start(uuid: UUID(), now: referenceNow, parameters: ["PID": "P&1"])
        run.choiceOrders = ["pet": [3, 1, 0, 2, 4]]
        run.blockOrders = ["blk": [2, 0, 1]]
        let json = JSONWriter.string(navigator.result(of: run, now: referenceNow).json(in: utc), pretty: false)
        #expect(json.contains(#""parameters":{"PID":"P&1"}"#))
        #expect(json.contains(#""choiceOrders":{"pet":["bird","dog","cat","fish","none"]}"#))
        #expect(json.contains(#""blockOrders":{"blk":["b3","b1","b2"]}"#))
    }

    @Test("A block's progress label follows the run's order, not the written one")
    func progressFollowsTheBlock() throws {
        let task = try loadSurvey(Self.survey.replacingOccurrences(of: "\"identifier\": \"orders\",", with: "\"identifier\": \"orders\", \"shouldReportProgress\": true,"))
        let navigator = Navigator(task: task, timeZone: utc)
        var run = navigator.start(uuid: UUID(), now: referenceNow, parameters: [:])
        run.blockOrders = ["blk": [2, 0, 1]]
        let b3 = try #require(task.step("b3"))
        #expect(navigator.progress(of: b3, in: run)?.current == navigator.progress(of: try #require(task.step("b1")))?.current)
    }

    @Test("An allocation step waits for its arm; the arm is its answer, rules read it, and a post cannot change it")
    func allocationWaitsForItsArm() throws {
        let task = try loadSurvey("""
            {"identifier": "alloc", "steps": [
              {"identifier": "a", "type": "question", "optional": false, "answerFormat": {"type": "boolean"}},
              {"identifier": "arm", "type": "allocation", "arms": [{"value": "x", "text": "group X"}, {"value": "y"}]},
              {"identifier": "only-x", "type": "instruction", "title": "X"},
              {"identifier": "end", "type": "instruction", "title": "end"}],
             "skipRules": {"only-x": {"not": {"result": "arm", "choice": "x"}}}}
            """)
        var walker = Walker(task)
        #expect(walker.next(["a": "true"]).isEmpty)
        #expect(walker.navigator.pendingAllocation(walker.run)?.step.identifier == "arm")
        let index = walker.run.cursor
        walker.run = walker.navigator.assign(arm: "y", in: walker.run, now: walker.now)
        #expect(walker.run.current?.stepIdentifier == "end")
        #expect(walker.run.visits[index].result("arm")?.answer == .choices([.string("y")]))
        // A page posted to the allocation's visit leaves the arm alone.
        let after = walker.navigator.submit(walker.run, visit: index, results: [], now: walker.now)
        #expect(after == walker.run)
    }
}
