import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The choices of an `answerValueSet` (or STU3 `options`) reference: a ValueSet contained
    /// in the Questionnaire, named by its id ("#id") or by its canonical URL (with or without
    /// "|version"), or one of the terminology beside it (the surveys folder, the FHIR packages)
    /// by its canonical URL. Any other would need a terminology server.
    func valueSetChoices(_ reference: String, at path: JSONPath, of item: Item) -> [Choice] {
        let owner = "The item '\(item.linkId)'"
        if reference.hasPrefix("#"), valueSets[String(reference.dropFirst())] == nil {
            error(path, "\(owner) takes its options from \(reference), but the Questionnaire contains no ValueSet with the id '\(reference.dropFirst())'.")
            return []
        }
        guard resolves(reference) else {
            error(path, "\(owner) takes its options from the ValueSet \(reference), which is neither contained in the Questionnaire nor "
                + "in the surveys folder or the FHIR packages, so it would need a terminology server.")
            return []
        }
        return choices(of: reference, at: path, of: item, visited: [])
    }

    private func resolves(_ reference: String) -> Bool {
        reference.hasPrefix("#") ? valueSets[String(reference.dropFirst())] != nil
            : valueSetsByURL[reference] != nil || terminology.valueSet(reference) != nil
    }

    /// The choices of a ValueSet that `resolves`: a contained one read in place, one from a file
    /// with its findings said at `path` (the reference), naming the file and the place in it.
    private func choices(of reference: String, at path: JSONPath, of item: Item, visited: Set<String>) -> [Choice] {
        let name = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        if reference.hasPrefix("#"), let contained = valueSets[name] {
            return choices(of: contained.object, at: contained.path, name: name, referencedAt: path, of: item, visited: visited)
        }
        if let contained = valueSetsByURL[reference] {
            return choices(of: contained.object, at: contained.path, name: name, referencedAt: path, of: item, visited: visited)
        }
        guard let resource = terminology.valueSet(reference) else { return [] }
        let before = diagnostics.count
        let found = choices(of: resource.json, at: .root, name: name, referencedAt: path, of: item, visited: visited)
        relocate(since: before, to: path, file: resource.file)
        return found
    }

    /// A ValueSet's concepts: its expansion, else its `compose.include`s, each of listed
    /// concepts, of a whole CodeSystem the terminology holds, or of other ValueSets.
    private func choices(of valueSet: JSONObject, at valueSetPath: JSONPath, name: String, referencedAt path: JSONPath, of item: Item,
                         visited: Set<String>) -> [Choice] {
        let about = "The ValueSet '\(name)' used by the item '\(item.linkId)'"
        guard !visited.contains(name) else {
            error(valueSetPath, "\(about) includes itself through other ValueSets.")
            return []
        }
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
            guard case .object(let object) = include else { continue }
            if object["filter"] != nil {
                error(includePath / "filter", "\(about) includes codes by a filter, which needs a terminology server; list the concepts instead.")
                continue
            }
            if case .array(let concepts)? = object["concept"] {
                for (conceptIndex, concept) in concepts.enumerated() {
                    if let choice = conceptChoice(concept, system: object["system"], at: includePath / "concept" / conceptIndex, of: item) {
                        choices.append(choice)
                    }
                }
            } else if case .string(let system)? = object["system"] {
                choices += codeSystemChoices(system, version: object["version"], at: includePath, about: about, of: item)
            } else if case .array(let others)? = object["valueSet"] {
                for case .string(let other) in others {
                    guard resolves(other) else {
                        error(includePath / "valueSet", "\(about) includes the ValueSet \(other), which is neither contained in the Questionnaire nor "
                            + "in the surveys folder or the FHIR packages.")
                        continue
                    }
                    choices += self.choices(of: other, at: path, of: item, visited: visited.union([name]))
                }
            } else {
                error(includePath, "\(about) has an include with neither concepts, a system nor ValueSets.")
            }
        }
        return choices
    }

    /// Every concept of a whole CodeSystem the terminology holds, when it holds them all.
    private func codeSystemChoices(_ system: String, version: JSONValue?, at path: JSONPath, about: String, of item: Item) -> [Choice] {
        let canonical: String = if case .string(let version)? = version { system + "|" + version } else { system }
        guard let resource = terminology.codeSystem(canonical) ?? terminology.codeSystem(system) else {
            error(path, "\(about) includes the whole code system \(system), which is not in the surveys folder or the FHIR packages, "
                + "so it would need a terminology server; list the concepts instead.")
            return []
        }
        guard resource.json["content"] == .string("complete"), case .array(let concepts)? = resource.json["concept"] else {
            error(path, "\(about) includes the code system \(system), but \(resource.file) does not hold all of its codes (content is not complete).")
            return []
        }
        var choices: [Choice] = []
        func walk(_ concepts: [JSONValue]) {
            for concept in concepts {
                if let choice = conceptChoice(concept, system: .string(system), at: path, of: item) { choices.append(choice) }
                if case .array(let nested)? = concept[fx: "concept"] { walk(nested) }
            }
        }
        walk(concepts)
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
