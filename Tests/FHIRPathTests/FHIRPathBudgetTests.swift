@testable import FHIRPath
import Foundation
import JSON
import Testing

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

    @Test("A select nested three deep over 50 items is stopped at the step limit, long before it builds its 125,000 strings")
    func nestedSelect() {
        let environment = FHIRPathEnvironment(resource: Self.response(items: 50))
        let source = "%resource.item.select(%resource.item.select(%resource.item.select(linkId & answer.value)))"
        let error = Kit.failure(source, environment)
        #expect(error?.exceeded == .steps(Self.standard.steps), "\(String(describing: error))")
        #expect(error?.message.contains("budget of \(Self.standard.steps) evaluation steps") == true)
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
        let error = Kit.failure("%many.distinct().count()", FHIRPathEnvironment(variables: ["many": many]))
        #expect(error?.exceeded == .steps(Self.standard.steps), "\(String(describing: error))")
    }
}
