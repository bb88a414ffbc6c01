import Foundation
import JSON

/// Pictures to pick from, one or several (ORKImageChoiceAnswerFormat).
public struct ImageChoiceFormat: Sendable, Hashable, AnswerFormatRules {
    public var style: ChoiceStyle?
    public var choices: [ImageChoice]
    public init(style: ChoiceStyle? = nil, choices: [ImageChoice]) {
        self.style = style
        self.choices = choices
    }
    public var effectiveStyle: ChoiceStyle { style ?? .singleChoice }

    static let typeName = "imageChoice"
    static let resultType = QuestionResultType.choice

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let style = reader.enumeration("style", ChoiceStyle.self)
        guard let elements = reader.array("choices", required: true, minimumCount: 1) else { return nil }
        let choices = elements.compactMap { choice($0.value, at: $0.path, log: reader.log) }
        guard choices.count == elements.count else { return nil }
        return .imageChoice(ImageChoiceFormat(style: style, choices: choices))
    }

    private static func choice(_ value: JSONValue, at path: JSONPath, log: DiagnosticLog) -> ImageChoice? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "An image choice") else { return nil }
        let image = reader.string("image", required: true, nonEmpty: true)
        let imageAlt = reader.text("imageAlt")
        if image != nil, imageAlt == nil, !reader.has("imageAlt") {
            log.error(path / "imageAlt", "An image needs \"imageAlt\", the text read out to people who cannot see it.")
        }
        let text = reader.text("text")
        let choiceValue = ChoiceList.value(reader)
        reader.finish("An image choice")
        guard let image, let imageAlt, let choiceValue else { return nil }
        return ImageChoice(image: image, imageAlt: imageAlt, text: text, value: choiceValue)
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["style"] = JSONKeys.name(style)
        object["choices"] = .array(choices.map { choice in
            .object(["image": .string(choice.image), "imageAlt": choice.imageAlt.json, "text": choice.text?.json, "value": choice.value.json])
        })
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        var seen: [ChoiceValue: Int] = [:]
        for (index, choice) in choices.enumerated() {
            checks.publicPath(choice.image, at: path / "choices" / index / "image")
            checks.uniqueValue(choice.value, index: index, seen: &seen, at: path / "choices" / index / "value")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        ChoiceList.parse(choices.map(\.asTextChoice), multiple: effectiveStyle == .multipleChoice, name: name, fields: fields)
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var takesSeveralValues: Bool { effectiveStyle == .multipleChoice }
    var choiceValues: [ChoiceValue]? { choices.map(\.value) }
    var texts: [LocalizedText?] { choices.flatMap { [$0.text, $0.imageAlt] } }
}
