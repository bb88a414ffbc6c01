import Foundation
@testable import SurveyCore
import SurveyRendering
import SurveyTestSupport
import Testing

// MARK: - Helpers shared by the format tests (Formats/), NumberParsingTests, AnswerPropertyTests and DuplicateFieldTests

/// Builds forms, contexts and outcomes for the answer validation tests.
enum AnswerTestKit {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let auckland = TimeZone(identifier: "Pacific/Auckland")!

    /// 2026-03-10T12:00:00Z, a Tuesday.
    static let noon = instant("2026-03-10T12:00:00Z")

    static func instant(_ text: String) -> Date {
        DateTimeParsing.instant(text, defaultZone: utc)!
    }

    static func context(_ language: String? = "en", now: Date = noon, zone: TimeZone = utc) -> AnswerContext {
        AnswerContext(language: language, now: now, timeZone: zone)
    }

    /// Parses one question called "q" (or `name`) from single-valued fields.
    static func parse(_ format: AnswerFormat, _ fields: [String: String], name: String = "q", language: String? = "en",
                      now: Date = noon, zone: TimeZone = utc) -> FieldOutcome {
        AnswerParser.parse(format, name: name, fields: FormFields(fields.mapValues { [$0] }),
                           context: context(language, now: now, zone: zone))
    }

    /// Parses from ordered pairs, for fields sent several times (checkboxes).
    static func parse(_ format: AnswerFormat, pairs: [(String, String)], name: String = "q", language: String? = "en") -> FieldOutcome {
        AnswerParser.parse(format, name: name, fields: FormFields(pairs: pairs), context: context(language))
    }

    static func answer(_ outcome: FieldOutcome) -> Answer? {
        if case .answer(let answer) = outcome { return answer }
        return nil
    }

    static func issues(_ outcome: FieldOutcome) -> [AnswerIssue] {
        if case .invalid(let issues) = outcome { return issues }
        return []
    }

    static func numeric(_ outcome: FieldOutcome) -> Double? {
        if case .answer(.numeric(let value)) = outcome { return value }
        return nil
    }

    static func scale(_ outcome: FieldOutcome) -> Double? {
        if case .answer(.scale(let value)) = outcome { return value }
        return nil
    }

    static func isEmpty(_ outcome: FieldOutcome) -> Bool {
        if case .empty = outcome { return true }
        return false
    }

    /// Expects exactly one issue with this code and field (and message, when given).
    static func expectIssue(_ outcome: FieldOutcome, _ code: AnswerIssue.Code, field: String, message: String? = nil,
                            language: String = "en", sourceLocation: SourceLocation = #_sourceLocation) {
        let found = issues(outcome)
        #expect(found.count == 1, "expected one issue, got \(outcome)", sourceLocation: sourceLocation)
        guard let issue = found.first else { return }
        #expect(issue.code == code, "\(issue)", sourceLocation: sourceLocation)
        #expect(issue.field == field, "\(issue)", sourceLocation: sourceLocation)
        let words = Catalog(language: language).words(for: issue)
        if let message {
            #expect(words == message, sourceLocation: sourceLocation)
        }
        #expect(!words.isEmpty, sourceLocation: sourceLocation)
    }

    static func choice(_ text: String, _ value: String, exclusive: Bool? = nil, other: OtherOption? = nil) -> TextChoice {
        TextChoice(text: LocalizedText(text), value: .string(value), exclusive: exclusive, other: other)
    }

    static let shown = DontKnowOption(show: true)
}
