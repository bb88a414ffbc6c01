import Foundation
import JSON

// Steps as Questionnaire items: form steps as groups, question steps as questions,
// instruction, completion and video steps as display items; review steps are left out.

extension QuestionnaireExport.Builder {
    func items() -> [JSONValue] {
        survey.steps.enumerated().compactMap { stepItem($0.element, path: .root / "steps" / $0.offset) }
    }

    /// Keys every step has that the export reads itself.
    private static let stepKeys: Set<String> = ["identifier", "type", "title", "text", "detailText", "fhir", "variables", "imageAlt"]

    private func stepItem(_ step: JSONValue, path: JSONPath) -> JSONValue? {
        let identifier = step[fx: "identifier"]?.fxString ?? ""
        let linkId = FHIRExportSurvey.stepLinkId(step)
        let type = step[fx: "type"]?.fxString ?? ""
        let skipPath = JSONPath.root / "skipRules" / identifier
        let skipRule = survey.json[fx: "skipRules"]?[fx: identifier]
        switch type {
        case "question":
            let condition = skipRule.flatMap { enableCondition($0, at: skipPath, negated: true) }
            let text = QuestionnaireExport.questionStepText(step, self.text)
            let shown: String? = ["question", "title", "text"].first { self.text.plain(step[fx: $0]) != nil }
            if shown == "question", self.text.plain(step[fx: "title"]) != nil {
                note(path / "title", "\"title\" is left out: the item's text is the step's \"question\".")
            }
            let hints = ["text", "detailText"].filter { (key: String) in key != shown }
            return questionItem(step, path: path, linkId: linkId, text: text, translated: shown.flatMap { step[fx: $0] }, hintKeys: hints,
                                condition: condition,
                                used: Self.stepKeys.union(["question", "optional"]))
        case "form":
            let condition = skipRule.flatMap { enableCondition($0, at: skipPath, negated: true) }
            noteUnused(step, at: path, used: Self.stepKeys.union(["items", "footerText", "repeat", "grid"]), defaults: ["optional": .bool(true)])
            return formGroup(step, path: path, condition: condition)
        case "instruction", "completion", "videoInstruction":
            let condition = skipRule.flatMap { enableCondition($0, at: skipPath, negated: true) }
            if let video = step[fx: "videoURL"]?.fxText {
                note(path / "videoURL", "A FHIR Questionnaire cannot play the video (\(video)); the step becomes a display item with its text.")
            }
            noteUnused(step, at: path, used: Self.stepKeys.union(["optional", "videoURL", "captionsURL"]))
            let parts = ["title", "text", "detailText"].compactMap { text.plain(step[fx: $0]) }
            return display(linkId: linkId, text: parts.joined(separator: "\n\n"), fhir: step[fx: "fhir"], condition: condition,
                           extensions: variables(step[fx: "variables"]))
        case "review":
            note(path, "Review steps have no FHIR equivalent; the step is left out.")
        default:
            note(path / "type", "A step of type \"\(type)\" has no FHIR equivalent; the step is left out.")
        }
        if skipRule != nil { note(skipPath, "The step has no item in the Questionnaire, so its skip rule is left out.") }
        return nil
    }

    /// A display item.
    /// `translated` is the survey text `text` came from, for its other languages.
    func display(linkId: String, text: String?, translated: JSONValue? = nil, fhir: JSONValue?, condition: FHIRExportCondition?,
                 extensions: [JSONValue] = []) -> JSONValue {
        FHIRJSON.object([
            "extension": .array(merged(kept: fhir, extensions + (condition?.extensions ?? []))),
            "linkId": .string(linkId),
            "code": fhir?[fx: "code"],
            "prefix": fhir?[fx: "prefix"]?.fxText.map(JSONValue.string),
            "text": FHIRJSON.string(FHIRExportText.withoutPrefix(text, fhir?[fx: "prefix"]?.fxText)),
            "_text": self.text.translations(translated, prefix: fhir?[fx: "prefix"]?.fxText),
            "type": .string("display"),
            "enableWhen": condition.map { .array($0.enableWhen) },
            "enableBehavior": condition?.behavior.map(JSONValue.string),
        ])
    }

    /// A group item; one left with no items (which FHIR forbids) is a display item instead.
    func group(linkId: String, text: String?, translated: JSONValue? = nil, fhir: JSONValue?, condition: FHIRExportCondition?,
               extensions: [JSONValue], items: [JSONValue]) -> JSONValue {
        guard !items.isEmpty else {
            return display(linkId: linkId, text: text, translated: translated, fhir: fhir, condition: condition, extensions: extensions)
        }
        return FHIRJSON.object([
            "extension": .array(merged(kept: fhir, extensions + (condition?.extensions ?? []))),
            "linkId": .string(linkId),
            "code": fhir?[fx: "code"],
            "prefix": fhir?[fx: "prefix"]?.fxText.map(JSONValue.string),
            "text": FHIRJSON.string(FHIRExportText.withoutPrefix(text, fhir?[fx: "prefix"]?.fxText)),
            "_text": self.text.translations(translated, prefix: fhir?[fx: "prefix"]?.fxText),
            "type": .string("group"),
            "enableWhen": condition.map { .array($0.enableWhen) },
            "enableBehavior": condition?.behavior.map(JSONValue.string),
            "item": .array(items),
        ])
    }

    /// The item's kept extensions (`fhir.extension`), then the ones made here whose URL they do not already hold.
    func merged(kept fhir: JSONValue?, _ made: [JSONValue]) -> [JSONValue] {
        let kept = fhir?[fx: "extension"]?.fxArray ?? []
        let keptURLs = Set(kept.compactMap { $0[fx: "url"]?.fxString })
        return kept + made.filter { extensionValue in
            let url = extensionValue[fx: "url"]?.fxString ?? ""
            return url == FHIRExtensionURL.variable ? !kept.contains(extensionValue) : !keptURLs.contains(url)
        }
    }

    /// Display items (`<linkId>.<key>`) for a form step's or a section's texts besides its title,
    /// to go inside its group; the import reads them back as notes.
    func textDisplays(_ object: JSONValue, keys: [String], linkId: String) -> [JSONValue] {
        keys.compactMap { key in
            text.plain(object[fx: key]).map { display(linkId: linkId + "." + key, text: $0, fhir: nil, condition: nil) }
        }
    }
}
