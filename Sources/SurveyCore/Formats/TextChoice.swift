import Foundation
import JSON

/// Radios or checkboxes of text choices (ORKTextChoiceAnswerFormat), with exclusive
/// choices and "other" boxes. The choices themselves are in Choices.swift.
public struct TextChoiceFormat: Sendable, Hashable, AnswerFormatRules {
    public var style: ChoiceStyle
    public var choices: [TextChoice]
    public init(style: ChoiceStyle, choices: [TextChoice]) {
        self.style = style
        self.choices = choices
    }

    static let typeName = "textChoice"
    static let resultType = QuestionResultType.choice

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let style = reader.enumeration("style", ChoiceStyle.self, required: true)
        let choices = ChoiceList.read(reader, "choices", minimumCount: 1)
        guard let style, let choices else { return nil }
        return .textChoice(TextChoiceFormat(style: style, choices: choices))
    }

    var jsonKeys: JSONObject {
        JSONObject([("style", .string(style.rawValue)), ("choices", .array(choices.map(\.json)))])
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        ChoiceList.check(choices, checks, at: path / "choices", allowsOther: true, exclusiveMatters: style == .multipleChoice)
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        ChoiceList.parse(choices, multiple: style == .multipleChoice, name: name, fields: fields)
    }

    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        guard case .choices(let values) = answer else { return AnswerFields.plainFields(for: answer, name: name, context: context) }
        return ChoiceList.fields(values, choices: choices, name: name)
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var takesSeveralValues: Bool { style == .multipleChoice }
    var choiceValues: [ChoiceValue]? { choices.map(\.value) }
    var texts: [LocalizedText?] { choices.flatMap(\.texts) }
}
