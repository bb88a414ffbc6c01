import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// Resource keys that carry metadata the survey does not need; they are read without a word.
    static let rootKeys: Set<String> = [
        "resourceType", "id", "meta", "implicitRules", "language", "text", "contained", "extension", "modifierExtension",
        "url", "identifier", "version", "name", "title", "derivedFrom", "status", "experimental", "subjectType", "date",
        "publisher", "contact", "description", "useContext", "jurisdiction", "purpose", "copyright", "approvalDate",
        "lastReviewDate", "effectivePeriod", "code", "item",
        "_title", "_description", "_copyright", "_purpose", "_name", "_version", "_status", "_date", "_publisher",
    ]

    /// The task's survey keys (`fhir`, `variables`) are written from these resource keys.
    static let taskDetailKeys = ["url", "version", "name", "status", "code"]

    /// The survey file for a Questionnaire; nil only when it cannot be read as one at all.
    func survey(from value: JSONValue, fallbackIdentifier: String) -> JSONValue? {
        guard case .object(let root) = value else {
            error(.root, "A Questionnaire is a JSON object, but this file holds \(value.typeDescription).")
            return nil
        }
        guard case .string("Questionnaire")? = root["resourceType"] else {
            let given: String = if case .string(let type)? = root["resourceType"] { "\"\(type)\"" } else { "missing" }
            error(.root / "resourceType", "This is not a FHIR Questionnaire: its resourceType is \(given).")
            return nil
        }
        rejectModifiers(root, at: .root, owner: "The Questionnaire")
        for key in root.keys where !Self.rootKeys.contains(key) {
            warning(.root / key, "The Questionnaire has the key \"\(key)\", which this presenter ignores.")
        }
        readContainedValueSets(root["contained"])
        readLanguages(root)

        var survey = JSONObject()
        var identifier: String?
        if case .string(let id)? = root["id"] { identifier = Self.sanitized(id, keepingDots: true) }
        survey["identifier"] = .string(identifier ?? Self.sanitized(fallbackIdentifier, keepingDots: true) ?? "questionnaire")
        survey["languages"] = surveyLanguages
        survey["title"] = json(phrase(root, "title", at: .root) ?? phrase(root, "name", at: .root))
        var details = JSONObject()
        for key in Self.taskDetailKeys {
            details[key] = root[key]
        }
        let extensions = QuestionnaireImport.Extensions(root["extension"], at: .root / "extension")
        // Observation extraction set for the whole Questionnaire is kept for the transaction export.
        let extract = extensions.take([FHIRExtensionURL.observationExtract]).map { JSONValue.object($0.object) }
        if !extract.isEmpty { details["extension"] = .array(extract) }
        if !details.isEmpty { survey["fhir"] = .object(details) }

        let variables = variables(extensions, owner: "The Questionnaire")
        if !variables.isEmpty { survey["variables"] = .array(variables) }
        reportIgnored(extensions, owner: "The Questionnaire")

        let items = readItems(root["item"], at: .root / "item", step: nil)
        let (steps, skipRules) = steps(from: items)
        if items.isEmpty {
            error(.root / "item", "The Questionnaire has no items, so there is nothing to ask.")
        } else if steps.isEmpty {
            error(.root / "item", "Every item of the Questionnaire is hidden, so there is nothing to show.")
        }
        survey["steps"] = .array(steps)
        if !skipRules.isEmpty { survey["skipRules"] = .object(skipRules) }
        return .object(survey)
    }

    /// Indexes the contained ValueSets by id and by canonical URL; other contained resources
    /// are not needed.
    private func readContainedValueSets(_ value: JSONValue?) {
        guard case .array(let resources)? = value else { return }
        for (index, resource) in resources.enumerated() {
            guard case .object(let object) = resource, case .string("ValueSet")? = object["resourceType"] else { continue }
            let entry = (object, JSONPath.root / "contained" / index)
            if case .string(let id)? = object["id"] { valueSets[id] = entry }
            if case .string(let url)? = object["url"] {
                valueSetsByURL[url] = entry
                if case .string(let version)? = object["version"] { valueSetsByURL[url + "|" + version] = entry }
            }
        }
    }
}
