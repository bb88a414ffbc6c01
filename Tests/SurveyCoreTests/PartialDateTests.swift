import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Dates of lower precision (`2022`, `2022-09`) as FHIR allows them in options, enableWhen and
/// comparisons: the first differing part decides, and a date equal as far as the less precise
/// one goes is undecided, so no test on it holds.
struct PartialDateTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func holds(_ answer: String, _ operation: ComparisonOperator, _ wanted: String) -> Bool {
        Predicate.compare(.date(.day(CalendarDate(answer)!)), operation, .string(wanted), zone: utc)
    }

    @Test("A day against a year or a month: decided by the first difference, else undecided")
    func days() {
        #expect(Self.holds("2023-01-05", .greater, "2022"))
        #expect(Self.holds("2023-01-05", .notEqual, "2022"))
        #expect(!Self.holds("2023-01-05", .equal, "2022"))
        #expect(Self.holds("2022-05-03", .less, "2022-06"))
        #expect(Self.holds("2022-05-03", .lessOrEqual, "2022-06"))
        for operation in ComparisonOperator.allCases {
            #expect(!Self.holds("2022-05-03", operation, "2022"), "undecided: \(operation) does not hold")
            #expect(!Self.holds("2022-05-03", operation, "2022-05"), "undecided: \(operation) does not hold")
        }
        #expect(Self.holds("2022-05-03", .equal, "2022-05-03"), "full dates compare as before")
    }

    @Test("A date and time answer is read as its day in the survey's zone")
    func instants() {
        let late = DateTimeParsing.instant("2022-12-31T23:30:00Z", defaultZone: Self.utc)!
        #expect(!Predicate.compare(.date(.instant(late)), .greater, .string("2022"), zone: Self.utc))
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(Predicate.compare(.date(.instant(late)), .greater, .string("2022"), zone: berlin), "it is 2023 in Berlin")
    }

    @Test("The span of a year or a month, for the path finder's candidates")
    func spans() {
        #expect(CalendarDate.span(ofPartial: "2024-02").map { "\($0.lowerBound) \($0.upperBound)" } == "2024-02-01 2024-02-29")
        #expect(CalendarDate.span(ofPartial: "2022").map { "\($0.lowerBound) \($0.upperBound)" } == "2022-01-01 2022-12-31")
        #expect(CalendarDate.span(ofPartial: "2022-13") == nil)
        #expect(CalendarDate.span(ofPartial: "2022-09-01") == nil)
    }

    @Test("A Questionnaire with partial dates in options and enableWhen imports, and its condition follows FHIR's rule")
    func questionnaire() throws {
        let outcome = importItems("""
        {"linkId": "onset", "type": "date", "text": "When did it start?"},
        {"linkId": "season", "type": "choice", "text": "Which period?", "answerOption": [{"valueDate": "2022"}, {"valueDate": "2022-09"}]},
        {"linkId": "recent", "type": "boolean", "text": "Still going?",
         "enableWhen": [{"question": "onset", "operator": ">", "answerDate": "2022-09"}]}
        """)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 1, "answerFormat", "choices", 1, "value") == .string("2022-09"))
        let survey = try #require(outcome.survey)
        let task = try #require(SurveyLoader.diagnose(survey).task)
        for (onset, asked) in [("2022-10-01", true), ("2022-09-15", false), ("2022-08-31", false)] {
            var walker = Walker(task)
            #expect(walker.next(["onset": onset]).isEmpty)
            #expect(walker.next(["season": "2022-09"]).isEmpty)
            #expect((walker.currentIdentifier == "recent") == asked, "onset \(onset)")
        }
    }
}
