import Foundation
import JSON

// What the choice formats share: a choice, its "other" box, and how a list of choices is
// read, checked, parsed and shown again. The formats are TextChoice, ValuePicker,
// MultipleValuePicker, ImageChoice and TextScale.

/// One choice of a text choice, value picker or text scale (ORKTextChoice).
public struct TextChoice: Sendable, Hashable {
    public var text: LocalizedText
    public var detailText: LocalizedText?
    public var value: ChoiceValue
    public var exclusive: Bool?
    public var other: OtherOption?
    /// The FHIR answerOption the choice came from: `system`, `code`, `display`, `valueType`, `extension` (docs/fhir.md).
    public var fhir: JSONObject?
    /// Keeps its written place when the choices are shuffled.
    public var pinned: Bool?
    /// The choice shows only when this holds on the answers before its step (XLSForm's
    /// `choice_filter`); a choice not shown cannot be chosen.
    public var visibleIf: Predicate?

    public init(text: LocalizedText, detailText: LocalizedText? = nil, value: ChoiceValue, exclusive: Bool? = nil, other: OtherOption? = nil,
                fhir: JSONObject? = nil, pinned: Bool? = nil) {
        self.pinned = pinned
        self.text = text
        self.detailText = detailText
        self.value = value
        self.exclusive = exclusive
        self.other = other
        self.fhir = fhir
    }

    public var isExclusive: Bool { exclusive ?? false }

    /// A choice with an "other" box stays in place unless the author unpins it.
    public var isPinned: Bool { pinned ?? (other != nil) }

    var json: JSONValue {
        var object = JSONObject([("text", text.json)])
        object["detailText"] = detailText?.json
        object["value"] = value.json
        object["exclusive"] = JSONKeys.flag(exclusive)
        if let other {
            object["other"] = .object(["placeholder": other.placeholder?.json, "optional": JSONKeys.flag(other.optional)])
        }
        object["fhir"] = fhir.map(JSONValue.object)
        object["pinned"] = pinned.map(JSONValue.bool)
        object["visibleIf"] = visibleIf?.json
        return .object(object)
    }

    var texts: [LocalizedText?] { [text, detailText, other?.placeholder] }
}

/// Reading, checking, parsing and showing again a list of choices.
enum ChoiceList {
    // MARK: Reading

    static func read(_ reader: ObjectReader, _ key: String, minimumCount: Int) -> [TextChoice]? {
        guard let elements = reader.array(key, required: true, minimumCount: minimumCount) else { return nil }
        let choices = elements.compactMap { choice($0.value, at: $0.path, log: reader.log) }
        return choices.count == elements.count ? choices : nil
    }

    static func choice(_ value: JSONValue, at path: JSONPath, log: DiagnosticLog) -> TextChoice? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A choice") else { return nil }
        let text = reader.text("text", required: true)
        let detailText = reader.text("detailText")
        let choiceValue = self.value(reader)
        let exclusive = reader.bool("exclusive")
        var other: OtherOption?
        if let otherReader = reader.objectReader("other", what: "\"other\"") {
            other = OtherOption(placeholder: otherReader.text("placeholder"), optional: otherReader.bool("optional"))
            otherReader.finish("\"other\"")
        }
        let fhir = reader.opaqueObject("fhir")
        let pinned = reader.bool("pinned")
        let visibleIf = reader.value("visibleIf").flatMap { SurveyDecoding(log: log).predicate($0, at: path / "visibleIf") }
        reader.finish("A choice")
        guard let text, let choiceValue else { return nil }
        var choice = TextChoice(text: text, detailText: detailText, value: choiceValue, exclusive: exclusive, other: other, fhir: fhir, pinned: pinned)
        choice.visibleIf = visibleIf
        return choice
    }

    /// A choice's `value`: a string or a number.
    static func value(_ reader: ObjectReader) -> ChoiceValue? {
        guard let raw = reader.value("value", required: true) else { return nil }
        guard let value = ChoiceValue(json: raw) else {
            reader.log.error(reader.path / "value", "\"value\" must be a string or a number, not \(raw.typeDescription).")
            return nil
        }
        return value
    }

    // MARK: Checking

    static func check(_ choices: [TextChoice], _ checks: FormatChecks, at path: JSONPath, allowsOther: Bool, exclusiveMatters: Bool) {
        var seen: [ChoiceValue: Int] = [:]
        for (index, choice) in choices.enumerated() {
            checks.uniqueValue(choice.value, index: index, seen: &seen, at: path / index / "value")
            if choice.other != nil, !allowsOther {
                checks.error(path / index / "other", "Only a textChoice format can have an \"other\" choice with a text field.")
            }
            if choice.exclusive == true, !exclusiveMatters {
                checks.warning(path / index / "exclusive", "\"exclusive\" only matters in a multiple choice; here it has no effect.")
            }
        }
    }

    // MARK: Parsing

    static func parse(_ choices: [TextChoice], multiple: Bool, name: String, fields: FormFields) -> FieldOutcome {
        var sent = fields.all(name).filter { !$0.isEmpty }
        var seen = Set<String>()
        sent = sent.filter { seen.insert($0).inserted }
        var chosen: [Int] = []
        for value in sent {
            guard let index = choices.firstIndex(where: { $0.value.formValue == value }) else {
                return AnswerIssue.one(name, .notAChoice, .selectAnOption)
            }
            chosen.append(index)
        }
        var issues: [AnswerIssue] = []
        // Text typed into an "other" box: it says which choice the participant meant.
        var otherTexts: [Int: String] = [:]
        for (index, choice) in choices.enumerated() where choice.other != nil {
            let field = AnswerFields.other(name, choiceIndex: index, in: choices)
            if let text = fields.trimmed(field) { otherTexts[index] = text.replacingOccurrences(of: "\r\n", with: "\n") }
        }
        for (index, _) in otherTexts.sorted(by: { $0.key < $1.key }) where !chosen.contains(index) {
            if multiple || chosen.isEmpty {
                chosen.append(index)
            } else {
                issues.append(AnswerIssue(field: AnswerFields.other(name, choiceIndex: index, in: choices), code: .otherText,
                                          problem: .otherNotChosen(choice: choices[index].text)))
            }
        }
        // Text in an "other" box that spells a choice's value is that choice: a result could
        // not tell the two apart, and the page that shows the answer again ticks the choice.
        for (index, text) in otherTexts {
            guard let same = choices.firstIndex(where: { $0.value.formValue == text }), same != index else { continue }
            otherTexts[index] = nil
            chosen = chosen.map { $0 == index ? same : $0 }
        }
        var once = Set<Int>()
        chosen = chosen.filter { once.insert($0).inserted }
        if !multiple, chosen.count > 1, issues.isEmpty {
            issues.append(AnswerIssue(field: name, code: .tooManyChoices, problem: .selectOneOnly))
        }
        if multiple, chosen.count > 1, let index = chosen.first(where: { choices[$0].isExclusive }) {
            issues.append(AnswerIssue(field: name, code: .exclusive, problem: .exclusiveWithOthers(choice: choices[index].text)))
        }
        for index in chosen {
            if let other = choices[index].other, !other.isOptional, otherTexts[index] == nil {
                issues.append(AnswerIssue(field: AnswerFields.other(name, choiceIndex: index, in: choices), code: .otherText,
                                          problem: .otherTextMissing(choice: choices[index].text)))
            }
        }
        if !issues.isEmpty { return .invalid(issues) }
        if chosen.isEmpty { return .empty }
        let ordered = multiple ? chosen.sorted() : chosen
        let values = ordered.map { index -> ChoiceValue in
            if let text = otherTexts[index] { return .string(text) }
            return choices[index].value
        }
        return .answer(.choices(values))
    }

    // MARK: Showing again

    /// Chosen values as fields; a typed "other" text marks its choice and fills its box.
    static func fields(_ values: [ChoiceValue], choices: [TextChoice], name: String) -> [(String, String)] {
        var fields: [(String, String)] = []
        var unmatched: [String] = []
        for value in values {
            if let index = choices.firstIndex(where: { $0.value == value }) {
                fields.append((name, value.formValue))
                // An "other" choice that needs text holds its own value only when that was typed.
                if let option = choices[index].other, !option.isOptional {
                    fields.append((AnswerFields.other(name, choiceIndex: index, in: choices), value.formValue))
                }
            } else {
                unmatched.append(value.formValue)
            }
        }
        let others = choices.indices.filter { choices[$0].other != nil }
        for (text, index) in zip(unmatched, others) {
            fields.append((name, choices[index].value.formValue))
            fields.append((AnswerFields.other(name, choiceIndex: index, in: choices), text))
        }
        return fields
    }
}
