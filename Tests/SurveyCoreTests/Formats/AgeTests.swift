import Foundation
import JSON
@testable import SurveyCore
import SurveyRendering
import SurveyTestSupport
import Testing

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: age")
struct AnswerParserAgeTests {
    static let adult = AnswerFormat.age(AgeFormat())

    @Test("age bounds (default 1 to 125)",
          arguments: [("1", 1.0, nil), ("125", 125, nil), ("42", 42, nil), ("42.0", 42, nil),
                      ("0", nil, AnswerIssue.Code.outOfRange), ("126", nil, .outOfRange), ("-1", nil, .outOfRange), ("-2", nil, .outOfRange),
                      ("42.5", nil, .notAWholeNumber), ("old", nil, .notAWholeNumber)] as [(String, Double?, AnswerIssue.Code?)])
    func age(raw: String, expected: Double?, code: AnswerIssue.Code?) {
        let outcome = Kit.parse(Self.adult, ["age": raw], name: "age")
        if let expected { #expect(Kit.numeric(outcome) == expected) }
        if let code { Kit.expectIssue(outcome, code, field: "age") }
    }

    @Test func ageMessagesAndCustomBounds() {
        let format = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65))
        Kit.expectIssue(Kit.parse(format, ["age": "17"], name: "age"), .outOfRange, field: "age", message: "Enter an age from 18 to 65")
        Kit.expectIssue(Kit.parse(format, ["age": "66"], name: "age"), .outOfRange, field: "age", message: "Enter an age from 18 to 65")
        #expect(Kit.numeric(Kit.parse(format, ["age": "18"], name: "age")) == 18)
        #expect(Kit.numeric(Kit.parse(format, ["age": "65"], name: "age")) == 65)
        Kit.expectIssue(Kit.parse(format, ["age": "30.5"], name: "age"), .notAWholeNumber, field: "age",
                        message: "Enter an age in whole years, like 42")
        let zero = AnswerFormat.age(AgeFormat(minimumAge: 0, maximumAge: 150))
        #expect(Kit.numeric(Kit.parse(zero, ["age": "0"], name: "age")) == 0)
        #expect(Kit.numeric(Kit.parse(zero, ["age": "150"], name: "age")) == 150)
    }

    @Test func ageSentinels() {
        let format = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65, treatMinAgeAsRange: true, treatMaxAgeAsRange: true))
        #expect(Kit.numeric(Kit.parse(format, ["age": "-1"], name: "age")) == Double(AgeFormat.minimumSentinel))
        #expect(Kit.numeric(Kit.parse(format, ["age": "-2"], name: "age")) == Double(AgeFormat.maximumSentinel))
        Kit.expectIssue(Kit.parse(format, ["age": "-3"], name: "age"), .outOfRange, field: "age")
        let onlyMin = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65, treatMinAgeAsRange: true))
        #expect(Kit.numeric(Kit.parse(onlyMin, ["age": "-1"], name: "age")) == -1)
        Kit.expectIssue(Kit.parse(onlyMin, ["age": "-2"], name: "age"), .outOfRange, field: "age")
    }

    @Test func ageUsesYearForResult() {
        let fixed = AnswerFormat.age(AgeFormat(useYearForResult: true, relativeYear: 2000))
        #expect(Kit.numeric(Kit.parse(fixed, ["age": "30"], name: "age")) == 1970)
        // Without relativeYear, the year of `now` in the participant's zone.
        let current = AnswerFormat.age(AgeFormat(useYearForResult: true))
        let newYearsEve = Kit.instant("2026-12-31T23:30:00Z")
        #expect(Kit.numeric(Kit.parse(current, ["age": "30"], name: "age", now: newYearsEve, zone: Kit.utc)) == 1996)
        #expect(Kit.numeric(Kit.parse(current, ["age": "30"], name: "age", now: newYearsEve, zone: Kit.auckland)) == 1997)
        // Sentinels stay sentinels; bounds are still checked on the age.
        let sentinel = AnswerFormat.age(AgeFormat(useYearForResult: true, treatMinAgeAsRange: true, relativeYear: 2000))
        #expect(Kit.numeric(Kit.parse(sentinel, ["age": "-1"], name: "age")) == -1)
        Kit.expectIssue(Kit.parse(fixed, ["age": "126"], name: "age"), .outOfRange, field: "age")
    }

    /// ResearchKit's bounds, kept in one place: the page takes the ages they bound and the
    /// Questionnaire's minValue and maxValue carry them.
    @Test func unsetBoundsAreTheDefaultsEverywhere() {
        #expect(AgeFormat.defaultMinimum == 1)
        #expect(AgeFormat.defaultMaximum == 125)
        #expect(Kit.numeric(Kit.parse(Self.adult, ["age": String(AgeFormat.defaultMinimum)], name: "age")) == Double(AgeFormat.defaultMinimum))
        #expect(Kit.numeric(Kit.parse(Self.adult, ["age": String(AgeFormat.defaultMaximum)], name: "age")) == Double(AgeFormat.defaultMaximum))
        Kit.expectIssue(Kit.parse(Self.adult, ["age": String(AgeFormat.defaultMaximum + 1)], name: "age"), .outOfRange, field: "age")
        let survey = FHIRExportFixtures.json("""
        { "identifier": "ages", "steps": [ { "identifier": "age", "type": "question", "title": "Age", "answerFormat": { "type": "age" } } ] }
        """)
        let item = fhirItem("age", in: QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).questionnaire)
        let low = fhirExtension("http://hl7.org/fhir/StructureDefinition/minValue", on: item)?[fx: "valueInteger"]
        let high = fhirExtension("http://hl7.org/fhir/StructureDefinition/maxValue", on: item)?[fx: "valueInteger"]
        #expect(low == .number(Double(AgeFormat.defaultMinimum)))
        #expect(high == .number(Double(AgeFormat.defaultMaximum)))
    }

    /// A number too large for an Int must be refused, not crash the server.
    @Test func hugeAgeIsRefusedWithoutCrashing() async {
        await #expect(processExitsWith: .success) {
            let outcome = AnswerParser.parse(.age(AgeFormat()), name: "age",
                                             fields: FormFields(["age": ["99999999999999999999"]]), context: AnswerContext(language: "en"))
            guard case .invalid(let issues) = outcome, issues.first?.code == .outOfRange else { exit(1) }
            exit(0)
        }
    }
}
