import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The survey's steps and skip rules from the top-level items: a group becomes a form, a
    /// display an instruction, a question a question step. A step's condition becomes a skip
    /// rule that skips it when the condition does not hold.
    func steps(from items: [Item]) -> (steps: [JSONValue], skipRules: JSONObject) {
        var steps: [JSONValue] = []
        var skipRules = JSONObject()
        for item in items {
            let condition = condition(for: item)
            let step: JSONObject?
            switch item.type {
            case "group": step = formStep(item)
            case "display": step = item.hidden ? nil : instructionStep(item)
            default: step = item.isQuestion ? questionStep(item) : nil
            }
            guard let step else { continue }
            steps.append(.object(step))
            if let condition { skipRules[item.identifier] = .object(["not": condition]) }
        }
        return (steps, skipRules)
    }

    private func instructionStep(_ item: Item) -> JSONObject {
        Self.fields([
            "identifier": .string(item.identifier), "type": .string("instruction"), "text": json(item.shownText),
            "fhir": details(of: item, within: nil, withType: true),
        ])
    }

    private func questionStep(_ item: Item) -> JSONObject {
        var step = Self.fields([
            "identifier": .string(item.identifier), "type": .string("question"), "question": json(item.shownText),
            "text": json(item.detail),
        ])
        for (key, value) in item.question.entries { step[key] = value }
        if !item.variables.isEmpty { step["variables"] = .array(item.variables) }
        step["fhir"] = details(of: item, within: nil, withType: true)
        return step
    }

    private func formStep(_ group: Item) -> JSONObject? {
        var step = Self.fields([
            "identifier": .string(group.identifier), "type": .string("form"), "title": json(group.shownText),
        ])
        var variables = group.variables
        let items = formItems(group.children, within: [], conditions: [], hidden: group.hidden, variables: &variables)
        if items.isEmpty {
            // A hidden group is simply not shown; one that is not hidden but shows nothing is a fault.
            if group.hidden { return nil }
            error(group.path, "The group '\(group.linkId)' has nothing that can be shown, so it cannot become a page.")
        }
        step["items"] = .array(items)
        if let limits = group.repeatLimits {
            step["repeat"] = .object(Self.fields([
                "label": json(group.shownText) ?? .string(group.linkId), "minimum": limits.minimum == 0 ? nil : .number(Double(limits.minimum)),
                "maximum": .number(Double(limits.maximum)),
            ]))
        }
        if group.asksForGrid {
            // A table of questions by answers is a grid when its questions share one list of
            // choices; the texts above the first question become the page's text.
            let leading = items.prefix { if case .object(let item) = $0 { return item["note"] != nil } else { return false } }
            let rows = Array(items.dropFirst(leading.count))
            let notes = leading.compactMap { note -> JSONValue? in
                if case .object(let item) = note { return item["note"] }
                return nil
            }
            let text: JSONValue? = notes.count == 1 ? notes[0] : notes.allSatisfy { if case .string = $0 { return true } else { return false } }
                ? .string(notes.compactMap { if case .string(let line) = $0 { return line } else { return nil } }.joined(separator: "\n")) : nil
            if Self.sharesChoices(rows), leading.isEmpty || text != nil {
                step["grid"] = .bool(true)
                step["items"] = .array(rows)
                if !leading.isEmpty { step["text"] = text }
            } else if group.repeatLimits == nil {
                warning(group.path, "The group '\(group.linkId)' asks to be shown as a table, but its questions do not share one list of choices; they are shown one under another.")
            }
        }
        if !variables.isEmpty { step["variables"] = .array(variables) }
        step["fhir"] = details(of: group, within: nil, withType: true)
        return step
    }

    /// Form items that can be a grid's rows: all single or multiple choice questions with the
    /// same choices (values and texts), none with an "other" box or a hint of its own.
    static func sharesChoices(_ items: [JSONValue]) -> Bool {
        var shared: [JSONValue]?
        for item in items {
            guard case .object(let object) = item, case .object(let format)? = object["answerFormat"],
                  format["type"] == .string("textChoice"), case .array(let choices)? = format["choices"] else { return false }
            let plain: [JSONValue] = choices.map { choice in
                guard case .object(let fields) = choice else { return choice }
                return .object(JSONObject([("text", fields["text"] ?? .null), ("value", fields["value"] ?? .null)]))
            }
            if choices.contains(where: { if case .object(let fields) = $0 { return fields["other"] != nil || fields["detailText"] != nil } else { return true } }) {
                return false
            }
            if let shared, shared != plain { return false }
            shared = plain
        }
        return shared != nil
    }

    /// The `fhir` keys of a step, form item, section header or note.
    func details(of item: Item, within: [String]?, withType: Bool) -> JSONValue {
        var details = Self.fields(["linkId": .string(item.linkId)])
        if withType { details["type"] = .string(item.type) }
        details["code"] = item.object["code"]
        details["prefix"] = item.object["prefix"]
        if let within, !within.isEmpty { details["within"] = .array(within.map(JSONValue.string)) }
        let kept = item.extensions.kept
        if !kept.isEmpty { details["extension"] = .array(kept) }
        return .object(details)
    }
}
