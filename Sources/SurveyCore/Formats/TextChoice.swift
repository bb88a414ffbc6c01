import Foundation
import JSON

/// Radios or checkboxes of text choices (ORKTextChoiceAnswerFormat), with exclusive
/// choices and "other" boxes. The choices themselves are in Choices.swift.
public struct TextChoiceFormat: Sendable, Hashable, AnswerFormatRules {
    public var style: ChoiceStyle
    public var choices: [TextChoice]
    /// Shown in an order drawn once per run; pinned choices keep their places (docs/panels.md).
    public var shuffle: Bool?
    public init(style: ChoiceStyle, choices: [TextChoice], shuffle: Bool? = nil) {
        self.style = style
        self.choices = choices
        self.shuffle = shuffle
    }

    /// The choices' indices in a drawn order: pinned ones (and those with an "other" box, unless
    /// unpinned) stay where they are written; the others share the remaining places.
    public func drawOrder(using generator: inout some RandomNumberGenerator) -> [Int] {
        var order = Array(choices.indices)
        let free = choices.indices.filter { !choices[$0].isPinned }
        let shuffled = free.shuffled(using: &generator)
        for (place, index) in zip(free, shuffled) { order[place] = index }
        return order
    }

    static let typeName = "textChoice"
    static let resultType = QuestionResultType.choice

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let style = reader.enumeration("style", ChoiceStyle.self, required: true)
        let choices = ChoiceList.read(reader, "choices", minimumCount: 1)
        let shuffle = reader.bool("shuffle")
        guard let style, let choices else { return nil }
        return .textChoice(TextChoiceFormat(style: style, choices: choices, shuffle: shuffle))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject([("style", .string(style.rawValue)), ("choices", .array(choices.map(\.json)))])
        object["shuffle"] = shuffle.map(JSONValue.bool)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        ChoiceList.check(choices, checks, at: path / "choices", allowsOther: true, exclusiveMatters: style == .multipleChoice)
        if shuffle != true, let index = choices.firstIndex(where: { $0.pinned != nil }) {
            checks.warning(path / "choices" / index / "pinned", "\"pinned\" only matters when the format has \"shuffle\": true; here it has no effect.")
        }
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
