import Foundation
import JSON

/// One value from each of several lists, recorded as components joined by a separator
/// (ORKMultipleValuePickerAnswerFormat). Its fields are `{item}.0`, `{item}.1`, …
public struct MultipleValuePickerFormat: Sendable, Hashable, AnswerFormatRules {
    public var pickers: [[TextChoice]]
    public var separator: String?
    public init(pickers: [[TextChoice]], separator: String? = nil) {
        self.pickers = pickers
        self.separator = separator
    }
    /// ResearchKit's default separator is one space.
    public var effectiveSeparator: String { separator ?? " " }

    static let typeName = "multipleValuePicker"
    static let resultType = QuestionResultType.multipleComponent

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        var pickers: [[TextChoice]]?
        if let elements = reader.array("pickers", required: true, minimumCount: 1) {
            let parsed = elements.map { element -> [TextChoice]? in
                guard case .array(let entries) = element.value else {
                    reader.log.error(element.path, "Each picker must be an array of choices, not \(element.value.typeDescription).")
                    return nil
                }
                if entries.isEmpty { reader.log.error(element.path, "Each picker needs at least 1 choice.") }
                let choices = entries.enumerated().compactMap { ChoiceList.choice($0.element, at: element.path / $0.offset, log: reader.log) }
                return choices.count == entries.count ? choices : nil
            }
            if parsed.allSatisfy({ $0 != nil }) { pickers = parsed.compactMap { $0 } }
        }
        let separator = reader.string("separator")
        return pickers.map { .multipleValuePicker(MultipleValuePickerFormat(pickers: $0, separator: separator)) }
    }

    var jsonKeys: JSONObject {
        var object = JSONObject([("pickers", .array(pickers.map { .array($0.map(\.json)) }))])
        object["separator"] = JSONKeys.string(separator)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        for (index, picker) in pickers.enumerated() {
            ChoiceList.check(picker, checks, at: path / "pickers" / index, allowsOther: false, exclusiveMatters: false)
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        var values: [ChoiceValue?] = []
        for (index, picker) in pickers.enumerated() {
            let field = AnswerFields.picker(name, index)
            guard let raw = fields.trimmed(field) else {
                values.append(nil)
                continue
            }
            guard let choice = picker.first(where: { $0.value.formValue == raw }) else {
                return AnswerIssue.one(field, .notAChoice, .selectAnOption)
            }
            values.append(choice.value)
        }
        if values.allSatisfy({ $0 == nil }) { return .empty }
        if let missing = values.firstIndex(where: { $0 == nil }) {
            return AnswerIssue.one(AnswerFields.picker(name, missing), .incomplete, .selectEveryList)
        }
        return .answer(.components(values.compactMap { $0 }))
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    func firstField(name: String, context: AnswerContext) -> String { AnswerFields.picker(name, 0) }
    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) { result.separator = effectiveSeparator }
    var choiceValues: [ChoiceValue]? { pickers.flatMap { $0.map(\.value) } }
    var texts: [LocalizedText?] { pickers.flatMap { $0.flatMap(\.texts) } }
}
