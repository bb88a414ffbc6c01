import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The item types whose answer is text, the only ones `maxLength` limits here.
    static let textTypes: Set<String> = ["string", "text", "url"]

    /// Reads a question item's own survey keys: whether it is required, read-only or hidden,
    /// its answer format, its initial value and its expressions.
    func readQuestion(_ item: Item) {
        let owner = "The item '\(item.linkId)'"
        readTextsUnder(item)
        if item.flag("repeats"), !item.isChoice {
            error(item.path / "repeats",
                  "\(owner) repeats, but only a choice question can take several answers here; this presenter cannot collect a list of \(item.type) answers.")
        }
        if item.object["maxLength"] != nil, !Self.textTypes.contains(item.type) {
            warning(item.path / "maxLength", "\(owner) has a maxLength, which only limits text answers; it is ignored.")
        }
        if let entry = item.extensions.take(FHIRExtensionURL.entryFormat), let hint = string(of: entry, owner: owner) {
            item.hint = phrase(entry.object, "valueString", at: entry.path) ?? Phrase(hint)
        }

        var question = JSONObject()
        var required = item.flag("required")
        if let entry = item.extensions.take(FHIRExtensionURL.minOccurs), let count = integer(of: entry, owner: owner), count >= 1 {
            required = true
            if count > 1 { warning(entry.path, "\(owner) asks for at least \(count) answers; only one is required here.") }
        }
        if required { question["optional"] = .bool(false) }
        if item.flag("readOnly") { question["readOnly"] = .bool(true) }
        if item.hidden { question["hidden"] = .bool(true) }
        let format = answerFormat(for: item)
        if let format { question["answerFormat"] = .object(format) }
        if let initial = initialValue(for: item, format: format) { question["initial"] = initial }
        for (key, url) in [("initialExpression", FHIRExtensionURL.initialExpression), ("calculatedExpression", FHIRExtensionURL.calculatedExpression)] {
            if let entry = item.extensions.take(url), let (_, expression) = expression(of: entry, owner: owner) {
                question[key] = .string(expression)
                item.expressionPaths[key] = entry.path / "valueExpression" / "expression"
            }
        }
        item.variables = variables(item.extensions, owner: owner)
        item.question = question
    }

    /// The display items under a question (its help, a "flyover", a line of instructions) are
    /// shown under the question, after its `entryFormat`; a question or group under a question
    /// is refused, since its answer would belong to the question's answer.
    private func readTextsUnder(_ item: Item) {
        guard let list = item.object["item"] else { return }
        let owner = "The item '\(item.linkId)'"
        guard case .array(let children) = list else {
            error(item.path / "item", "\(owner) has an \"item\" that is not a list of items.")
            return
        }
        for (index, child) in children.enumerated() {
            let path = item.path / "item" / index
            guard case .object(let object) = child, case .string("display")? = object["type"] else {
                error(path, "\(owner) has a question or group under it; this presenter can show only a text (a display item) "
                    + "under a question, not items whose answers would belong to its answer.")
                continue
            }
            let extensions = Extensions(object["extension"], at: path / "extension")
            if let entry = extensions.take(FHIRExtensionURL.hidden), case .bool(true)? = value(of: entry, ["Boolean"], owner: owner) { continue }
            if object["enableWhen"] != nil || extensions.take(FHIRExtensionURL.enableWhenExpression) != nil {
                warning(path, "\(owner) has a text under it with a condition, which is not applied here: the text is always shown.")
            }
            if let text = phrase(object, "text", at: path) { item.textsUnder.append(text) }
        }
    }

    /// The survey answer format for a question item, or nil (with an error) when there is none.
    func answerFormat(for item: Item) -> JSONObject? {
        switch item.type {
        case "boolean", "time":
            ignoreControl(itemControl(of: item), of: item)
            return Self.fields(["type": .string(item.type == "time" ? "timeOfDay" : "boolean")])
        case "decimal", "integer", "quantity": return numberFormat(for: item)
        case "date", "dateTime": return dateFormat(for: item)
        case "string", "text", "url": return textFormat(for: item)
        case "choice", "open-choice": return choiceFormat(for: item)
        default: return nil
        }
    }

    /// The `questionnaire-itemControl` code, taken; nil when there is none.
    func itemControl(of item: Item) -> (code: String, path: JSONPath)? {
        guard let entry = item.extensions.take(FHIRExtensionURL.itemControl),
              let code = code(of: entry, owner: "The item '\(item.linkId)'") else { return nil }
        return (code, entry.path)
    }

    /// Warns that an itemControl code has no effect on this item.
    func ignoreControl(_ control: (code: String, path: JSONPath)?, of item: Item, reason: String? = nil) {
        guard let control else { return }
        warning(control.path, "The item '\(item.linkId)' asks for the itemControl '\(control.code)', which is ignored\(reason.map { ": " + $0 } ?? " here").")
    }

    /// A date format with bounds from minValue and maxValue.
    private func dateFormat(for item: Item) -> JSONObject {
        let owner = "The item '\(item.linkId)'"
        let withTime = item.type == "dateTime"
        var format = Self.fields(["type": .string("date"), "style": .string(withTime ? "dateAndTime" : "date")])
        for (key, url) in [("minimumDate", FHIRExtensionURL.minValue), ("maximumDate", FHIRExtensionURL.maxValue)] {
            guard let entry = item.extensions.take(url),
                  case .string(let text)? = value(of: entry, withTime ? ["DateTime", "Date"] : ["Date"], owner: owner) else { continue }
            if text.count == 10 || (withTime && text.count > 10) {
                format[key] = .string(text)
            } else {
                warning(entry.path, "\(owner) has a bound (\(text)) that is not a whole date; it is ignored.")
            }
        }
        ignoreControl(itemControl(of: item), of: item)
        return format
    }

    /// A text format with the length limits, the regular expression and its message.
    private func textFormat(for item: Item) -> JSONObject {
        let owner = "The item '\(item.linkId)'"
        var format = Self.fields(["type": .string("text")])
        if item.type == "text" { format["multipleLines"] = .bool(true) }
        if case .number(let length)? = item.object["maxLength"] { format["maximumLength"] = .number(length) }
        if let entry = item.extensions.take(FHIRExtensionURL.minLength), let length = integer(of: entry, owner: owner) {
            format["minimumLength"] = .number(Double(length))
        }
        if let entry = item.extensions.take(FHIRExtensionURL.regex), let pattern = string(of: entry, owner: owner) {
            // FHIR's regex constrains the whole value; the survey format's matches anywhere in it.
            format["validationRegularExpression"] = .string("^(?:" + pattern + ")$")
        } else if item.type == "url" {
            format["validationRegularExpression"] = .string("^[A-Za-z][A-Za-z0-9+.-]*:\\S+$")
        }
        // The survey format needs a message with a pattern; `entryFormat` is the Questionnaire's
        // own word for what to enter, and without one the message says what kind of answer it is.
        if format["validationRegularExpression"] != nil {
            format["invalidMessage"] = json(item.hint ?? entryMessage(url: item.type == "url"))
        }
        ignoreControl(itemControl(of: item), of: item)
        return format
    }
}
