import Foundation
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// FHIR's enableWhen on one question, as the `compare` and `answered` predicates judge it:
/// every operator, for an answered and an unanswered question of every type.
@Suite("enableWhen semantics")
struct EnableWhenSemanticsTests {
    /// One type: an answer, and a value below, equal to and above it (nil where a type has no order).
    struct Case: Sendable, CustomStringConvertible {
        let type: String
        let answer: Answer
        let below: ExpectedValue?
        let same: ExpectedValue
        let above: ExpectedValue?
        var description: String { type }
    }

    static let cases: [Case] = [
        Case(type: "boolean", answer: .boolean(true), below: nil, same: .bool(true), above: nil),
        Case(type: "integer", answer: .numeric(3), below: .number(2), same: .number(3), above: .number(4)),
        Case(type: "decimal", answer: .numeric(36.6), below: .number(36.5), same: .number(36.6), above: .number(36.7)),
        Case(type: "string", answer: .text("m"), below: .string("a"), same: .string("m"), above: .string("z")),
        Case(type: "date", answer: .date(.day(CalendarDate("2026-03-10")!)), below: .string("2026-03-09"), same: .string("2026-03-10"),
             above: .string("2026-03-11")),
        Case(type: "dateTime", answer: .date(.instant(DateTimeParsing.instant("2026-03-10T09:30:00Z", defaultZone: utc)!)),
             below: .string("2026-03-10T09:00:00Z"), same: .string("2026-03-10T09:30:00Z"), above: .string("2026-03-10T10:00:00Z")),
        Case(type: "time", answer: .timeOfDay(TimeOfDay("09:30")!), below: .string("09:00"), same: .string("09:30"), above: .string("10:00")),
        Case(type: "coding", answer: .choices([.string("LA6569-3")]), below: nil, same: .string("LA6569-3"), above: nil),
        Case(type: "integer choice", answer: .choices([.number(2)]), below: .number(1), same: .number(2), above: .number(3)),
    ]

    static func holds(_ answer: Answer?, _ operation: ComparisonOperator, _ value: ExpectedValue) -> Bool {
        Predicate.compare(answer, operation, value, zone: utc)
    }

    @Test("With no answer only != holds, for every type and operator", arguments: cases)
    func unanswered(_ given: Case) {
        for operation in ComparisonOperator.allCases {
            #expect(Self.holds(nil, operation, given.same) == (operation == .notEqual), "\(operation.rawValue)")
            #expect(Self.holds(.dontKnow, operation, given.same) == (operation == .notEqual), "\(operation.rawValue) don't know")
        }
    }

    @Test("= and != on an answered question", arguments: cases)
    func equality(_ given: Case) {
        #expect(Self.holds(given.answer, .equal, given.same))
        #expect(!Self.holds(given.answer, .notEqual, given.same))
        let other = given.above ?? (given.type == "boolean" ? .bool(false) : .string("LA6570-1"))
        #expect(!Self.holds(given.answer, .equal, other))
        #expect(Self.holds(given.answer, .notEqual, other))
    }

    @Test("> < >= <= on an answered question of an ordered type", arguments: cases.filter { $0.below != nil })
    func order(_ given: Case) throws {
        let below = try #require(given.below)
        let above = try #require(given.above)
        #expect(Self.holds(given.answer, .greater, below))
        #expect(!Self.holds(given.answer, .greater, given.same))
        #expect(Self.holds(given.answer, .greaterOrEqual, given.same))
        #expect(!Self.holds(given.answer, .greaterOrEqual, above))
        #expect(Self.holds(given.answer, .less, above))
        #expect(!Self.holds(given.answer, .less, given.same))
        #expect(Self.holds(given.answer, .lessOrEqual, given.same))
        #expect(!Self.holds(given.answer, .lessOrEqual, below))
    }

    @Test("A value of another type never equals, so only != holds")
    func mismatchedTypes() {
        #expect(!Self.holds(.numeric(3), .equal, .string("three")))
        #expect(Self.holds(.numeric(3), .notEqual, .string("three")))
        #expect(!Self.holds(.boolean(true), .greater, .number(0)))
    }

    @Test("Several answers: the test holds when any answer passes it")
    func severalAnswers() {
        let chosen = Answer.choices([.string("a"), .string("b")])
        #expect(Self.holds(chosen, .equal, .string("b")))
        #expect(Self.holds(chosen, .notEqual, .string("a")), "b is not a")
        #expect(!Self.holds(.choices([.string("a")]), .notEqual, .string("a")))
    }

    @Test("answered is FHIR's exists: a missing, skipped or hidden question has no answer")
    func exists() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}}]}
            """)
        var walker = Walker(task)
        walker.next(["a": "true"])
        walker.skip()
        let result = walker.result
        let a = ResultSelector("a"), b = ResultSelector("b"), missing = ResultSelector("c")
        #expect(Predicate.answered(a, true).evaluate(on: result, timeZone: utc))
        #expect(!Predicate.answered(a, false).evaluate(on: result, timeZone: utc))
        #expect(Predicate.answered(b, false).evaluate(on: result, timeZone: utc), "skipped")
        #expect(Predicate.answered(missing, false).evaluate(on: result, timeZone: utc), "not on the path")
        #expect(!Predicate.answered(missing, true).evaluate(on: result, timeZone: utc))
        #expect(Predicate.compare(missing, .notEqual, .bool(true)).evaluate(on: result, timeZone: utc))
        #expect(!Predicate.compare(missing, .equal, .bool(true)).evaluate(on: result, timeZone: utc))
    }
}
