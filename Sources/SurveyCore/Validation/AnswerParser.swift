import Foundation
import JSON

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
