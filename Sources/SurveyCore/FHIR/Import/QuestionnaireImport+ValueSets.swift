import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The choices of an `answerValueSet` (or STU3 `options`) reference: a ValueSet contained
    /// in the Questionnaire, named by its id ("#id") or by its canonical URL (with or without
    /// "|version"). Any other would need a terminology server.
    func valueSetChoices(_ reference: String, at path: JSONPath, of item: Item) -> [Choice] {
        let owner = "The item '\(item.linkId)'"
        let found: (object: JSONObject, path: JSONPath)
        let name: String
        if reference.hasPrefix("#") {
            name = String(reference.dropFirst())
            guard let contained = valueSets[name] else {
                error(path, "\(owner) takes its options from \(reference), but the Questionnaire contains no ValueSet with the id '\(name)'.")
                return []
            }
            found = contained
        } else if let contained = valueSetsByURL[reference] {
            found = contained
            name = reference
        } else {
            error(path, "\(owner) takes its options from the ValueSet \(reference), which the Questionnaire does not contain, so it "
                + "would need a terminology server; only a ValueSet contained in the Questionnaire (by \"#id\" or by its url) can be offered here.")
            return []
        }
        let (valueSet, valueSetPath) = found
        let about = "The ValueSet '\(name)' used by the item '\(item.linkId)'"
        if case .object(let expansion)? = valueSet["expansion"], case .array(let contains)? = expansion["contains"] {
            return expansionChoices(contains, at: valueSetPath / "expansion" / "contains", of: item)
        }
        guard case .object(let compose)? = valueSet["compose"], case .array(let includes)? = compose["include"] else {
            error(valueSetPath, "\(about) lists no concepts (neither compose.include nor expansion.contains).")
            return []
        }
        if compose["exclude"] != nil {
            error(valueSetPath / "compose" / "exclude", "\(about) excludes codes, which needs a terminology server; list only the concepts to offer.")
        }
        var choices: [Choice] = []
        for (index, include) in includes.enumerated() {
            let includePath = valueSetPath / "compose" / "include" / index
            guard case .object(let object) = include, case .array(let concepts)? = object["concept"],
                  object["filter"] == nil, object["valueSet"] == nil else {
                error(includePath, "\(about) includes codes by a filter or from another ValueSet, which needs a terminology server; list the concepts instead.")
                continue
            }
            for (conceptIndex, concept) in concepts.enumerated() {
                if let choice = conceptChoice(concept, system: object["system"], at: includePath / "concept" / conceptIndex, of: item) {
                    choices.append(choice)
                }
            }
        }
        return choices
    }

    /// The concepts of an expansion, nested ones included; abstract entries only group others.
    private func expansionChoices(_ contains: [JSONValue], at path: JSONPath, of item: Item) -> [Choice] {
        var choices: [Choice] = []
        for (index, entry) in contains.enumerated() {
            guard case .object(let object) = entry else { continue }
            if object["abstract"] != .bool(true), let choice = conceptChoice(entry, system: object["system"], at: path / index, of: item) {
                choices.append(choice)
            }
            if case .array(let nested)? = object["contains"] {
                choices += expansionChoices(nested, at: path / index / "contains", of: item)
            }
        }
        return choices
    }

    /// One concept as a choice, with its score extensions.
    private func conceptChoice(_ value: JSONValue, system: JSONValue?, at path: JSONPath, of item: Item) -> Choice? {
        guard case .object(let concept) = value else {
            error(path, "The item '\(item.linkId)' has a ValueSet concept that is not an object.")
            return nil
        }
        let coding = Self.fields(["system": system, "code": concept["code"], "display": concept["display"],
                                  "_display": Self.translationElement(concept)])
        let extensions = Extensions(concept["extension"], at: path / "extension")
        defer { reportIgnored(extensions, owner: "A ValueSet concept used by the item '\(item.linkId)'") }
        return codingChoice(coding, at: path, extensions: extensions, selected: false, of: item)
    }
}
