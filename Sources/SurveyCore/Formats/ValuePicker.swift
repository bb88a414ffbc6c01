import Foundation
import JSON

/// One value from a list, shown as a select (ORKValuePickerAnswerFormat).
public struct ValuePickerFormat: Sendable, Hashable, AnswerFormatRules {
    public var choices: [TextChoice]
    public init(choices: [TextChoice]) { self.choices = choices }

    static let typeName = "valuePicker"
    static let resultType = QuestionResultType.choice

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        ChoiceList.read(reader, "choices", minimumCount: 1).map { .valuePicker(ValuePickerFormat(choices: $0)) }
    }

    var jsonKeys: JSONObject { JSONObject([("choices", .array(choices.map(\.json)))]) }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        ChoiceList.check(choices, checks, at: path / "choices", allowsOther: false, exclusiveMatters: false)
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        ChoiceList.parse(choices, multiple: false, name: name, fields: fields)
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var choiceValues: [ChoiceValue]? { choices.map(\.value) }
    var texts: [LocalizedText?] { choices.flatMap(\.texts) }
}
