import Foundation
import Testing
@testable import SurveyCore

private typealias Kit = FHIRPathTestSupport

/// The budget every evaluation runs within: expressions that would hold a page or grow the
/// process are stopped with an error naming the limit, refused at load when the starting answers
/// already show it, and count as empty at run time when only some answers do.
@Suite("FHIRPath budget")
struct FHIRPathBudgetTests {
    /// The documented limits (docs/fhir.md), written out so that a test fails when they change.
    static let standard = FHIRPathBudget(steps: 200_000, collectionSize: 50_000, stringLength: 100_000)

    @Test("The standard budget is the documented one")
    func documentedLimits() {
        #expect(FHIRPathBudget.standard == Self.standard)
    }

    /// A response with `count` items, each with a linkId and a string answer.
    static func response(items count: Int) -> JSONValue {
        let items = (0..<count).map { #"{"linkId": "q\#($0)", "answer": [{"valueString": "a\#($0)"}]}"# }.joined(separator: ",")
        return Kit.json(#"{"resourceType": "QuestionnaireResponse", "item": [\#(items)]}"#)
    }

    /// The error `source` stops with, and how long it took to stop.
    static func stopped(_ source: String, _ environment: FHIRPathEnvironment) -> (FHIRPathError?, Duration) {
        var error: FHIRPathError?
        let elapsed = ContinuousClock().measure { error = Kit.failure(source, environment) }
        return (error, elapsed)
    }

    @Test("A select nested three deep over 50 items is stopped at the step limit, quickly")
    func nestedSelect() {
        let environment = FHIRPathEnvironment(resource: Self.response(items: 50))
        let source = "%resource.item.select(%resource.item.select(%resource.item.select(linkId & answer.value)))"
        let (error, elapsed) = Self.stopped(source, environment)
        #expect(error?.exceeded == .steps(Self.standard.steps), "\(String(describing: error))")
        #expect(error?.message.contains("budget of \(Self.standard.steps) evaluation steps") == true)
        // Unbudgeted, this builds 125,000 strings; stopped, it takes a fraction of the limit below on a busy machine.
        #expect(elapsed < .seconds(2), "stopped after \(elapsed)")
    }

    @Test("Evaluation stops at the step where the budget runs out")
    func stepsAreCounted() throws {
        let expression = try FHIRPathExpression("%resource.item.select(%resource.item.count())")
        let environment = FHIRPathEnvironment(resource: Self.response(items: 50))
        let (_, steps) = try expression.evaluateCounting(in: environment)
        let tight = FHIRPathBudget(steps: steps - 1, collectionSize: 1_000, stringLength: 1_000)
        #expect(throws: FHIRPathError(exceeding: .steps(steps - 1), at: 15)) { try expression.evaluate(in: environment, budget: tight) }
        let exact = FHIRPathBudget(steps: steps, collectionSize: 50, stringLength: 10)
        #expect(try expression.evaluate(in: environment, budget: exact).count == 50)
    }

    /// Operators that double a string held in `%a`, as a variable chain does.
    static let doublings = ["%a & %a", "%a + %a", "(%a & %a).toString()"]

    @Test("A string doubled again and again is stopped by the string limit", arguments: doublings)
    func doublingStrings(_ source: String) throws {
        let expression = try FHIRPathExpression(source)
        var value: [FHIRPathValue] = [.string("0123456789")]
        var failure: (level: Int, error: FHIRPathError)?
        // Unbudgeted, twenty levels build a string of ten million bytes.
        for level in 1...20 {
            do {
                value = try expression.evaluate(in: FHIRPathEnvironment(variables: ["a": value]))
            } catch {
                failure = (level, error)
                break
            }
        }
        // 10 × 2^13 = 81,920 bytes fit; 10 × 2^14 = 163,840 do not.
        #expect(failure?.level == 14, "\(String(describing: failure))")
        #expect(failure?.error.exceeded == .stringLength(Self.standard.stringLength))
        #expect(failure?.error.message.contains("\(Self.standard.stringLength) bytes in a string") == true)
    }

    @Test("A quantity unit multiplied with itself again and again is stopped by the string limit")
    func growingUnits() throws {
        let expression = try FHIRPathExpression("%a * %a")
        var value: [FHIRPathValue] = [.quantity(1, unit: "mg.m")]
        var error: FHIRPathError?
        for _ in 1...20 {
            do { value = try expression.evaluate(in: FHIRPathEnvironment(variables: ["a": value])) } catch let caught {
                error = caught
                break
            }
        }
        #expect(error?.exceeded == .stringLength(Self.standard.stringLength), "\(String(describing: error))")
    }

    @Test("A collection larger than the limit is stopped by the collection limit")
    func largeCollections() throws {
        let size = Self.standard.collectionSize
        let wide = FHIRPathEnvironment(resource: Self.response(items: size + 1))
        #expect(Kit.failure("item.count()", wide)?.exceeded == .collectionSize(size))
        #expect(Kit.evaluate("item.count()", FHIRPathEnvironment(resource: Self.response(items: 100))) == [.integer(100)])
        let half: [FHIRPathValue] = (0..<(size / 2 + 1)).map { .integer($0) }
        let union = Kit.failure("%half | %half", FHIRPathEnvironment(variables: ["half": half]))
        #expect(union?.exceeded == .collectionSize(size), "\(String(describing: union))")
        let spread = Kit.failure("%half.select($this | %ten)", FHIRPathEnvironment(variables: ["half": half, "ten": Array(half.prefix(10))]))
        #expect(spread?.exceeded != nil, "\(String(describing: spread))")
    }

    @Test("distinct on many items is charged a step for every comparison")
    func quadraticWorkIsCharged() {
        let many: [FHIRPathValue] = (0..<5_000).map { .integer($0) }
        let (error, elapsed) = Self.stopped("%many.distinct().count()", FHIRPathEnvironment(variables: ["many": many]))
        #expect(error?.exceeded == .steps(Self.standard.steps), "\(String(describing: error))")
        #expect(elapsed < .seconds(2), "stopped after \(elapsed)")
    }

    // MARK: Real questionnaires stay far within it

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("PHQ-9's scores and total take a small part of the budget")
    func phq9WithinBudget() throws {
        let file = try Data(contentsOf: Self.root.appendingPathComponent("Examples/phq-9.json"))
        let (task, diagnostics) = SurveyLoader.diagnose(file, name: "phq-9")
        #expect(task != nil, "\(diagnostics.filter(\.isError))")
        let questionnaire = try JSONParser.parse(file)
        let links = ["44250-9", "44255-8", "44259-0", "44254-1", "44251-7", "44258-2", "44252-5", "44253-3", "44260-8"]
        let codes = ["LA6568-5", "LA6569-3", "LA6570-1", "LA6571-9"]
        let items = links.enumerated().map { index, link in
            #"{"linkId": "\#(link)", "answer": [{"valueCoding": {"system": "http://loinc.org", "code": "\#(codes[index % 4])"}}]}"#
        }.joined(separator: ",")
        let response = Kit.json(#"{"resourceType": "QuestionnaireResponse", "item": [{"linkId": "44249-1", "item": [\#(items)]}]}"#)
        guard case .array(let extensions)? = pick(questionnaire, "extension") else {
            Issue.record("PHQ-9 has no variables")
            return
        }
        var names: [String: [FHIRPathValue]] = [:]
        var most = 0
        for entry in extensions {
            guard case .string(let name)? = pick(entry, "valueExpression", "name"),
                  case .string(let source)? = pick(entry, "valueExpression", "expression") else { continue }
            let environment = FHIRPathEnvironment(resource: response, questionnaire: questionnaire, variables: names)
            let (values, steps) = try FHIRPathExpression(source).evaluateCounting(in: environment)
            names[name] = values
            most = max(most, steps)
        }
        let total = try FHIRPathExpression("%score1 + %score2 + %score3 + %score4 + %score5 + %score6 + %score7 + %score8 + %score9")
        let (sum, steps) = try total.evaluateCounting(in: FHIRPathEnvironment(resource: response, questionnaire: questionnaire, variables: names))
        #expect(sum.singleValue.flatMap(FHIRPathOperators.number) == 12)
        #expect(most < 400, "a score took \(most) steps")
        #expect(steps < 30, "the total took \(steps) steps")
        #expect(most * 400 < Self.standard.steps, "a score takes under a quarter of a percent of the budget")
    }

    @Test("Every built-in example loads with no expression over budget")
    func examplesLoad() throws {
        let folder = Self.root.appendingPathComponent("Examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            let (task, diagnostics) = SurveyLoader.diagnose(try Data(contentsOf: folder.appendingPathComponent(file)),
                                                            name: String(file.dropLast(5)))
            #expect(task != nil, "\(file): \(diagnostics.filter(\.isError))")
            #expect(!diagnostics.contains { $0.message.contains("budget") }, "\(file)")
        }
    }

    // MARK: Loading and running a questionnaire

    /// Ten values, so that a select nested five deep meets 100,000 items.
    static let ten = "1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10"
    static let explosive = "%n.select(%n.select(%n.select(%n.select(%n.select($this))))).count()"

    static func questionnaire(calculated: String, enableWhen: String) -> JSONValue {
        Kit.json(#"""
            {"resourceType": "Questionnaire", "id": "budget", "status": "active",
             "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/variable",
                            "valueExpression": {"name": "n", "language": "text/fhirpath", "expression": "\#(ten)"}}],
             "item": [
               {"linkId": "big", "text": "Big?", "type": "boolean"},
               {"linkId": "total", "text": "Total", "type": "integer", "readOnly": true,
                "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
                               "valueExpression": {"language": "text/fhirpath", "expression": "\#(calculated)"}}]},
               {"linkId": "after", "text": "After", "type": "string",
                "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression",
                               "valueExpression": {"language": "text/fhirpath", "expression": "\#(enableWhen)"}}]}]}
            """#)
    }

    @Test("A questionnaire whose expression is over budget on its starting answers is refused with the expression's path")
    func refusedAtLoad() {
        let value = Self.questionnaire(calculated: Self.explosive, enableWhen: "true")
        let (task, diagnostics) = SurveyLoader.diagnose(value, name: "budget")
        #expect(task == nil)
        let errors = diagnostics.filter(\.isError)
        #expect(errors.count == 1, "\(errors)")
        let error = errors.first
        #expect(error?.path.description == "$.steps[1].calculatedExpression", "\(errors)")
        #expect(error?.message.contains("budget of \(Self.standard.steps) evaluation steps") == true, "\(errors)")
        #expect(error?.message.contains(Self.explosive) == true)

        let skip = Self.questionnaire(calculated: "1", enableWhen: "\(Self.explosive) > 0")
        let refusedSkip = SurveyLoader.diagnose(skip, name: "budget").diagnostics.filter(\.isError)
        #expect(refusedSkip.map(\.path.description) == ["$.skipRules.after.not.expression"], "\(refusedSkip)")
    }

    @Test("A variable over budget at load is refused at the variable's path")
    func variableRefusedAtLoad() throws {
        let survey = #"""
            {"identifier": "t", "variables": [{"name": "n", "expression": "\#(Self.ten)"}, {"name": "big", "expression": "\#(Self.explosive)"}],
             "steps": [{"identifier": "a", "type": "question", "answerFormat": {"type": "numeric"}, "calculatedExpression": "%big + 1"}]}
            """#
        let errors = SurveyLoader.diagnose(Data(survey.utf8)).diagnostics.filter(\.isError)
        #expect(errors.map(\.path.description) == ["$.variables[1].expression"], "\(errors)")
    }

    /// Faults heard while a run is worked out.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var faults: [ExpressionFault] = []
        var all: [ExpressionFault] { lock.withLock { faults } }
        func add(_ fault: ExpressionFault) { lock.withLock { faults.append(fault) } }
    }

    @Test("An expression over budget only on some answers counts as empty at run time, and is reported without answers")
    func emptyAtRunTime() throws {
        // Written as no other test writes them, so faults other tests meet at the same time are told apart.
        let calculated = "iif(%resource.item.where(linkId = 'big').answer.value, \(Self.explosive), 0) + 0"
        let enableWhen = "iif(%resource.item.where(linkId = 'big').answer.value, \(Self.explosive) > 0, true) and true"
        let (loaded, diagnostics) = SurveyLoader.diagnose(Self.questionnaire(calculated: calculated, enableWhen: enableWhen), name: "budget")
        let task = try #require(loaded, "\(diagnostics.filter(\.isError))")
        let heard = Heard()
        let listening = ExpressionFault.listen { fault in
            if fault.expression == calculated || fault.expression == enableWhen { heard.add(fault) }
        }
        defer { ExpressionFault.stopListening(listening) }
        do {
            var calm = Walker(task)
            calm.next(["big": "false"])
            let calmVisit = try #require(calm.run.current)
            let total = try #require(task.steps[1].questions.first)
            #expect(calm.navigator.presetAnswer(for: total, of: task.steps[1], visit: calmVisit, in: calm.run, index: 1) == .numeric(0))
            calm.next()
            #expect(calm.currentIdentifier == "after", "the condition holds")
            #expect(heard.all.isEmpty)

            var wild = Walker(task)
            let start = ContinuousClock.now
            wild.next(["big": "true"])
            let visit = try #require(wild.run.current)
            #expect(wild.navigator.presetAnswer(for: total, of: task.steps[1], visit: visit, in: wild.run, index: 1) == nil,
                    "an over-budget calculation gives no answer")
            wild.next()
            #expect(wild.run.isFinished, "an over-budget condition is false, so the last item is skipped")
            #expect(ContinuousClock.now - start < .seconds(10))
        }
        let faults = heard.all
        #expect(!faults.isEmpty)
        #expect(faults.allSatisfy { $0.survey == "budget" && $0.limit == .steps(Self.standard.steps) })
        #expect(Set(faults.map(\.expression)) == [calculated, enableWhen], "\(faults)")
        #expect(faults.contains { $0.step == "total" && $0.question == "total" })
    }
}
