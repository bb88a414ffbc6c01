import Foundation
import JSON

/// What a participant's request carries besides the fields: their language, the time and
/// the zone in which dates are read.
public struct AnswerContext: Sendable {
    public var language: String?
    public var now: Date
    public var timeZone: TimeZone

    public init(language: String? = nil, now: Date = Date(), timeZone: TimeZone = .current) {
        self.language = language
        self.now = now
        self.timeZone = timeZone
    }
}

/// What one question's fields amount to.
public enum FieldOutcome: Sendable, Hashable {
    /// Nothing was entered.
    case empty
    case answer(Answer)
    case invalid([AnswerIssue])
}

/// The names of the form fields each answer format uses, shared by the parser and the pages.
public enum AnswerFields {
    public static func dontKnow(_ name: String) -> String { name + ".dontKnow" }

    /// The text field of an "other" choice: `{item}.other`, or `{item}.other.{index}` when a
    /// format has several.
    public static func other(_ name: String, choiceIndex: Int, in choices: [TextChoice]) -> String {
        choices.filter { $0.other != nil }.count > 1 ? "\(name).other.\(choiceIndex)" : "\(name).other"
    }

    public static func picker(_ name: String, _ index: Int) -> String { "\(name).\(index)" }
}

/// Turns the raw strings of a form into typed answers: the checks every format shares, then
/// the format's own `parse` (in `Formats/`).
public enum AnswerParser {
    public static func parse(_ format: AnswerFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        if let field = AnswerFields.conflicting(in: fields, name: name, format: format) {
            return .invalid([AnswerIssue(field: field, code: .conflictingValues, problem: .conflictingValues)])
        }
        if format.showsDontKnow, fields.has(AnswerFields.dontKnow(name)) {
            return .answer(.dontKnow)
        }
        return format.rules.parse(name: name, fields: fields, context: context)
    }
}

extension AnswerIssue {
    /// One issue in a list, as most formats report.
    static func one(_ field: String, _ code: Code, _ problem: Problem) -> FieldOutcome {
        .invalid([AnswerIssue(field: field, code: code, problem: problem)])
    }
}
