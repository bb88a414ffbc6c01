@testable import FHIRPath
import Foundation
import JSON
import SurveyCore
import SurveyTestSupport
import Testing

/// Real surveys stay far within the FHIRPath budget, and a survey whose expressions go over it
/// is refused at load, or its expression counts as empty at run time when only some answers do.
@Suite("Expression budget")
struct ExpressionBudgetTests {
    static func json(_ text: String) -> JSONValue {
        do { return try JSONParser.parse(text) } catch { fatalError("fixture: \(error)") }
    }

    // MARK: Real questionnaires stay far within it

    static let root = Repository.root
    static let standard = FHIRPathBudget.standard

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
        let response = Self.json(#"{"resourceType": "QuestionnaireResponse", "item": [{"linkId": "44249-1", "item": [\#(items)]}]}"#)
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
        Self.json(#"""
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
        #expect(error?.path.description == "$.item[1].extension[0].valueExpression.expression", "\(errors)")
        #expect(error?.message.hasPrefix("The item 'total': ") == true, "\(errors)")
        #expect(error?.message.contains("budget of \(Self.standard.steps) evaluation steps") == true, "\(errors)")
        #expect(error?.message.contains(Self.explosive) == true)

        let skip = Self.questionnaire(calculated: "1", enableWhen: "\(Self.explosive) > 0")
        let refusedSkip = SurveyLoader.diagnose(skip, name: "budget").diagnostics.filter(\.isError)
        #expect(refusedSkip.map(\.path.description) == ["$.item[2].extension[0].valueExpression.expression"], "\(refusedSkip)")
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
            wild.next(["big": "true"])
            let visit = try #require(wild.run.current)
            #expect(wild.navigator.presetAnswer(for: total, of: task.steps[1], visit: visit, in: wild.run, index: 1) == nil,
                    "an over-budget calculation gives no answer")
            wild.next()
            #expect(wild.run.isFinished, "an over-budget condition is false, so the last item is skipped")
        }
        let faults = heard.all
        #expect(!faults.isEmpty)
        #expect(faults.allSatisfy { $0.survey == "budget" && $0.limit == .steps(Self.standard.steps) })
        #expect(Set(faults.map(\.expression)) == [calculated, enableWhen], "\(faults)")
        #expect(faults.contains { $0.step == "total" && $0.question == "total" })
    }
}
