import Foundation
import JSON

extension QuestionnaireImport.Reader {
    typealias Item = QuestionnaireImport.Item

    /// Item keys read by the import (or safely left alone); any other is reported as ignored.
    /// STU3's `initialBoolean`, `initialCoding`… are recognised by their prefix.
    static let itemKeys: Set<String> = [
        "id", "linkId", "definition", "code", "prefix", "text", "type", "enableWhen", "enableBehavior", "required", "repeats",
        "readOnly", "maxLength", "answerValueSet", "answerOption", "initial", "item", "extension", "modifierExtension",
        "option", "options", "_text", "_prefix", "_linkId",
    ]

    /// Reads an `item` array, depth first in document order. `step` is the identifier of the
    /// form step the items belong to, nil at the top level.
    func readItems(_ value: JSONValue?, at path: JSONPath, step: String?) -> [Item] {
        guard let value else { return [] }
        guard case .array(let elements) = value else {
            error(path, "\"item\" must be an array of items, not \(value.typeDescription).")
            return []
        }
        return elements.enumerated().compactMap { readItem($0.element, at: path / $0.offset, step: step) }
    }

    private func readItem(_ value: JSONValue, at path: JSONPath, step: String?) -> Item? {
        guard case .object(let object) = value else {
            error(path, "Each item must be an object, not \(value.typeDescription).")
            return nil
        }
        guard case .string(let linkId)? = object["linkId"], !linkId.isEmpty else {
            error(path / "linkId", "An item has no linkId; every item needs one so that its answer can be returned.")
            return nil
        }
        guard case .string(let type)? = object["type"] else {
            error(path / "type", "The item '\(linkId)' has no type, so it is not known what it asks.")
            return nil
        }
        if items[linkId] != nil {
            error(path / "linkId", "The linkId '\(linkId)' is used by more than one item; each item needs its own.")
        }
        let identifier = uniqueIdentifier(for: linkId)
        let isQuestion = QuestionnaireImport.questionTypes.contains(type)
        let selector = isQuestion ? step.map { "\($0).\(identifier)" } ?? identifier : nil
        itemCount += 1
        let item = Item(object: object, path: path, linkId: linkId, type: type, order: itemCount, identifier: identifier, selector: selector)
        item.text = phrase(object, "text", at: path)
        item.prefix = phrase(object, "prefix", at: path)
        if items[linkId] == nil { items[linkId] = item }
        let owner = "The item '\(linkId)'"

        rejectModifiers(object, at: path, owner: owner)
        for key in object.keys where !Self.itemKeys.contains(key) && !Self.isSTU3Initial(key) {
            warning(path / key, "\(owner) has the key \"\(key)\", which this presenter ignores.")
        }
        if let entry = item.extensions.take(FHIRExtensionURL.hidden), case .bool(let hidden)? = self.value(of: entry, ["Boolean"], owner: owner) {
            item.hidden = hidden
        }
        // Used: it becomes a predicate once every item is known, after unused extensions are reported.
        _ = item.extensions.take([FHIRExtensionURL.enableWhenExpression])
        // Kept in `fhir.extension` for the transaction export.
        _ = item.extensions.take([FHIRExtensionURL.observationExtract])

        switch type {
        case "group":
            readGroup(item, step: step ?? identifier, topLevel: step == nil)
        case "display":
            readDisplay(item)
        case "attachment", "reference":
            let article = type == "attachment" ? "an attachment" : "a reference"
            error(path / "type", "The item '\(linkId)' asks for \(article); this presenter cannot collect one.")
        default:
            if isQuestion {
                readQuestion(item)
            } else {
                error(path / "type", "The item '\(linkId)' has the type '\(type)', which is not a Questionnaire item type this presenter knows.")
            }
        }
        reportIgnored(item.extensions, owner: owner)
        return item
    }

    /// STU3 wrote the initial value as `initialBoolean`, `initialCoding` and so on.
    static func isSTU3Initial(_ key: String) -> Bool {
        key.count > 7 && key.hasPrefix("initial") && key.dropFirst(7).first?.isUppercase == true
    }

    private func readGroup(_ item: Item, step: String, topLevel: Bool) {
        let owner = "The item '\(item.linkId)'"
        if item.flag("repeats") {
            if topLevel {
                // A repeating page: a copy per instance, as many as minOccurs and maxOccurs allow (docs/repeats-and-grids.md).
                let minimum = item.extensions.take(FHIRExtensionURL.minOccurs).flatMap { integer(of: $0, owner: owner) }
                    ?? (item.flag("required") ? 1 : 0)
                let maximum = item.extensions.take(FHIRExtensionURL.maxOccurs).flatMap { integer(of: $0, owner: owner) }
                    ?? FormRepeat.maximumAllowed
                if maximum > FormRepeat.maximumAllowed {
                    warning(item.path, "\(owner) allows \(maximum) copies; a participant may add at most \(FormRepeat.maximumAllowed) here.")
                }
                let most = min(max(maximum, 1), FormRepeat.maximumAllowed)
                item.repeatLimits = (min(max(minimum, 0), most), most)
            } else {
                error(item.path / "repeats", "\(owner) is a repeating group inside another group; only a top-level group (a page) can be repeated here.")
            }
        }
        if let control = itemControl(of: item) {
            if ["table", "htable", "gtable"].contains(control.code) {
                item.asksForGrid = true
            } else {
                ignoreControl(control, of: item)
            }
        }
        for key in ["required", "readOnly"] where item.flag(key) && !(key == "required" && item.repeatLimits != nil) {
            warning(item.path / key, "\(owner) is a group marked \(key); only its questions can be \(key), so this is ignored.")
        }
        item.variables = variables(item.extensions, owner: owner)
        item.children = readItems(item.object["item"], at: item.path / "item", step: step)
    }

    private func readDisplay(_ item: Item) {
        let owner = "The item '\(item.linkId)'"
        if item.object["item"] != nil {
            error(item.path / "item", "\(owner) is a display item with items of its own; this presenter cannot show items under a text.")
        }
        for key in ["required", "repeats", "readOnly"] where item.flag(key) {
            warning(item.path / key, "\(owner) is a display item, which has no answer, so \"\(key)\" is ignored.")
        }
    }
}
