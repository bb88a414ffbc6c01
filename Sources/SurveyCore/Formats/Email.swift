import Foundation
import JSON

/// An email address (ORKEmailAnswerFormat), checked with ResearchKit's expression.
public struct EmailFormat: Sendable, Hashable, AnswerFormatRules {
    public var dontKnow: DontKnowOption
    public init(dontKnow: DontKnowOption = DontKnowOption()) { self.dontKnow = dontKnow }

    static let typeName = "email"
    static let resultType = QuestionResultType.text

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .email(EmailFormat(dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject { JSONObject() }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        let pattern = "^[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,6}$"
        guard raw.range(of: pattern, options: .regularExpression) != nil else { return AnswerIssue.one(name, .email, .email) }
        return .answer(.text(raw))
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .email }
    var dontKnowOption: DontKnowOption? { dontKnow }
}
