import Foundation
import JSON

extension QuestionnaireImport.Reader {
    typealias Choice = QuestionnaireImport.Choice

    /// The itemControl codes that ask for a list to pick one value from.
    static let pickerControls: Set<String> = ["drop-down", "autocomplete", "lookup"]
    /// The itemControl codes that ask for what a text choice already shows.
    static let buttonControls: Set<String> = ["radio-button", "check-box"]

    /// A text choice (radios or checkboxes) or a value picker for a choice or open-choice item.
    func choiceFormat(for item: Item) -> JSONObject? {
        let owner = "The item '\(item.linkId)'"
        let errorsBefore = errorCount
        item.choices = options(of: item)
        var multiple = item.flag("repeats")
        if multiple, let entry = item.extensions.take(FHIRExtensionURL.maxOccurs), let limit = integer(of: entry, owner: owner) {
            if limit == 1 {
                multiple = false
            } else {
                warning(entry.path, "\(owner) allows at most \(limit) answers; that limit is not enforced here.")
            }
        } else if !multiple {
            _ = item.extensions.take(FHIRExtensionURL.maxOccurs)
        }
        var choices = item.choices.map { JSONValue.object($0.json) }
        let isOpen = item.type == "open-choice"
        if isOpen {
            var value = "other"
            var counter = 2
            while item.choices.contains(where: { $0.value == .string(value) }) {
                value = "other-\(counter)"
                counter += 1
            }
            choices.append(.object(["text": .string("Other"), "value": .string(value), "other": .object(["optional": .bool(true)])]))
        }
        var seen = Set<String>()
        for choice in item.choices where !seen.insert(JSONWriter.string(choice.value, pretty: false)).inserted {
            error(choice.path, "\(owner) offers the value \(JSONWriter.string(choice.value, pretty: false)) twice; each option needs its own value.")
        }
        guard !item.choices.isEmpty else {
            // Options that could not be read have said why already.
            if errorCount == errorsBefore {
                error(item.path, "\(owner) is a choice question with no options (answerOption or answerValueSet).")
            }
            return nil
        }

        let control = itemControl(of: item)
        if let control, Self.pickerControls.contains(control.code) {
            if !multiple, !isOpen { return Self.fields(["type": .string("valuePicker"), "choices": .array(choices)]) }
            ignoreControl(control, of: item, reason: isOpen ? "a list cannot hold an \"Other\" box, so the options are shown as buttons"
                                                            : "a list picks one value, so the options are shown as checkboxes")
        } else if let control, !Self.buttonControls.contains(control.code) {
            ignoreControl(control, of: item)
        }
        return Self.fields(["type": .string("textChoice"), "style": .string(multiple ? "multipleChoice" : "singleChoice"), "choices": .array(choices)])
    }

    /// The options of a choice item from `answerOption` (R4), `option` (STU3) or a contained ValueSet.
    private func options(of item: Item) -> [Choice] {
        let owner = "The item '\(item.linkId)'"
        var lists: [(key: String, value: JSONValue)] = []
        for key in ["answerOption", "option", "answerValueSet", "options"] {
            if let value = item.object[key] { lists.append((key, value)) }
        }
        if lists.count > 1 {
            error(item.path / lists[1].key, "\(owner) gives its options twice (\(lists.map(\.key).joined(separator: " and "))); give one list.")
        }
        guard let (key, value) = lists.first else { return [] }
        switch (key, value) {
        case ("answerOption", .array(let elements)), ("option", .array(let elements)):
            return elements.enumerated().compactMap { option($0.element, at: item.path / key / $0.offset, of: item) }
        case ("answerValueSet", .string(let reference)):
            return valueSetChoices(reference, at: item.path / key, of: item)
        case ("options", .object(let reference)):
            guard case .string(let text)? = reference["reference"] else { break }
            return valueSetChoices(text, at: item.path / key / "reference", of: item)
        default:
            break
        }
        error(item.path / key, "\(owner) has \"\(key)\" in a form this presenter cannot read.")
        return []
    }

    /// One `answerOption` or STU3 `option`.
    private func option(_ value: JSONValue, at path: JSONPath, of item: Item) -> Choice? {
        let owner = "The item '\(item.linkId)'"
        guard case .object(let object) = value else {
            error(path, "\(owner) has an option that is not an object.")
            return nil
        }
        let selected = object["initialSelected"] == .bool(true)
        let extensions = Extensions(object["extension"], at: path / "extension")
        defer { reportIgnored(extensions, owner: "An option of the item '\(item.linkId)'") }
        switch (object["valueCoding"], object["valueString"], object["valueInteger"], object["valueDate"]) {
        case (.object(let coding)?, _, _, _):
            return codingChoice(coding, at: path / "valueCoding", extensions: extensions, selected: selected, of: item)
        case (_, .string(let text)?, _, _):
            let shown = phrase(object, "valueString", at: path) ?? Phrase(text)
            return plainChoice(.string(text), text: shown, valueType: "string", at: path, extensions: extensions, selected: selected)
        case (_, _, .number(let number)?, _):
            return plainChoice(.number(number), text: Phrase(JSONWriter.number(number)), valueType: "integer", at: path, extensions: extensions,
                               selected: selected)
        case (_, _, _, .string(let date)?):
            return plainChoice(.string(date), text: Phrase(date), valueType: "date", at: path, extensions: extensions, selected: selected)
        default:
            let given = object.keys.first { $0.hasPrefix("value") } ?? "no value"
            error(path, "\(owner) has an option with \(given); this presenter offers options with valueCoding, valueString, valueInteger or valueDate.")
            return nil
        }
    }

    private func plainChoice(_ value: JSONValue, text: Phrase, valueType: String, at path: JSONPath, extensions: Extensions, selected: Bool) -> Choice {
        var details = JSONObject([("valueType", .string(valueType))])
        let scores = extensions.take(FHIRExtensionURL.choiceScores).map { JSONValue.object($0.object) }
        if !scores.isEmpty { details["extension"] = .array(scores) }
        let json = Self.fields(["text": json(text), "value": value, "fhir": .object(details)])
        return Choice(value: value, json: json, system: nil, code: nil, path: path, initiallySelected: selected)
    }

    /// A choice from a Coding (of an option or a ValueSet concept); the score extensions may sit
    /// on the option or on the coding, as both occur.
    func codingChoice(_ coding: JSONObject, at path: JSONPath, extensions: Extensions, selected: Bool, of item: Item) -> Choice? {
        guard case .string(let code)? = coding["code"], !code.isEmpty else {
            error(path, "The item '\(item.linkId)' has an option whose coding has no code, so its answer could not be returned.")
            return nil
        }
        let system: String? = if case .string(let system)? = coding["system"] { system } else { nil }
        let display: String? = if case .string(let display)? = coding["display"] { display } else { nil }
        let codingExtensions = Extensions(coding["extension"], at: path / "extension")
        var scores = extensions.take(FHIRExtensionURL.choiceScores)
        scores += codingExtensions.take(FHIRExtensionURL.choiceScores)
        reportIgnored(codingExtensions, owner: "An option of the item '\(item.linkId)'")

        var details = JSONObject()
        details["system"] = system.map(JSONValue.string)
        details["code"] = .string(code)
        details["display"] = display.map(JSONValue.string)
        details["valueType"] = .string("coding")
        if !scores.isEmpty { details["extension"] = .array(scores.map { .object($0.object) }) }
        let shown = phrase(coding, "display", at: path) ?? Phrase(code)
        let json = Self.fields(["text": json(shown), "value": .string(code), "fhir": .object(details)])
        return Choice(value: .string(code), json: json, system: system, code: code, path: path, initiallySelected: selected)
    }
}
