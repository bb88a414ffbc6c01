import Foundation
import JSON

/// A slider over 2 to 8 labelled positions (ORKTextScaleAnswerFormat); the web shows radios.
public struct TextScaleFormat: Sendable, Hashable, AnswerFormatRules {
    public var choices: [TextChoice]
    public var defaultIndex: Int?
    public var vertical: Bool?
    public var dontKnow: DontKnowOption
    public init(choices: [TextChoice], defaultIndex: Int? = nil, vertical: Bool? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.choices = choices
        self.defaultIndex = defaultIndex
        self.vertical = vertical
        self.dontKnow = dontKnow
    }

    static let typeName = "textScale"
    static let resultType = QuestionResultType.choice

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let choices = ChoiceList.read(reader, "choices", minimumCount: 0)
        let defaultIndex = reader.integer("defaultIndex")
        let vertical = reader.bool("vertical")
        let dontKnow = DontKnowOption(reading: reader)
        return choices.map { .textScale(TextScaleFormat(choices: $0, defaultIndex: defaultIndex, vertical: vertical, dontKnow: dontKnow)) }
    }

    var jsonKeys: JSONObject {
        var object = JSONObject([("choices", .array(choices.map(\.json)))])
        object["defaultIndex"] = JSONKeys.integer(defaultIndex)
        object["vertical"] = JSONKeys.flag(vertical)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if choices.count < 2 {
            checks.error(path / "choices", "A text scale needs at least 2 choices; this one has \(choices.count).")
        } else if choices.count > 8 {
            checks.error(path / "choices", "A text scale takes at most 8 choices; this one has \(choices.count).")
        }
        ChoiceList.check(choices, checks, at: path / "choices", allowsOther: false, exclusiveMatters: false)
        if let index = defaultIndex, !choices.indices.contains(index) {
            checks.warning(path / "defaultIndex", "\"defaultIndex\" \(index) is not a choice's position (0 to \(choices.count - 1)), so nothing is chosen by default.")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        ChoiceList.parse(choices, multiple: false, name: name, fields: fields)
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var choiceValues: [ChoiceValue]? { choices.map(\.value) }
    var texts: [LocalizedText?] { choices.flatMap(\.texts) }
}
