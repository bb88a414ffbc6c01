import Foundation
import JSON

/// Yes or no (ORKBooleanAnswerFormat), with the author's own words for each if given.
public struct BooleanFormat: Sendable, Hashable, AnswerFormatRules {
    public var yes: LocalizedText?
    public var no: LocalizedText?
    public init(yes: LocalizedText? = nil, no: LocalizedText? = nil) {
        self.yes = yes
        self.no = no
    }

    static let typeName = "boolean"
    static let resultType = QuestionResultType.boolean

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .boolean(BooleanFormat(yes: reader.text("yes"), no: reader.text("no")))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["yes"] = yes?.json
        object["no"] = no?.json
        return object
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        switch raw.lowercased() {
        case "true", "yes", "1": return .answer(.boolean(true))
        case "false", "no", "0": return .answer(.boolean(false))
        default: return AnswerIssue.one(name, .notAChoice, .selectAnOption)
        }
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var texts: [LocalizedText?] { [yes, no] }
}
