import Foundation
import JSON

// A question step or a form question as a Questionnaire question item: the keys every
// question has (required, read-only, hidden, expressions, variables, hint) around what its
// answer format gives (`formatMapping`).
//
// A question item holds no items here: the import refuses items under a question, so texts
// besides the question's own go into its one hint, `entryFormat` (which the import reads
// back as the text under the question): a regular expression's message first, then the
// texts under the question, then the placeholder. Texts that find no room get a note.

extension QuestionnaireExport.Builder {
    /// What an answer format gives its item.
    struct FormatMapping {
        var kind: FHIRExportKind
        var maxLength: Int?
        var options: [JSONValue] = []
        var initial: [JSONValue] = []
        var extensions: [JSONValue] = []
        /// The message of the format's regular expression, which takes the item's hint first.
        var regexMessage: String?
    }

    /// Keys of a question's behaviour (docs/fhir.md) that `questionItem` reads.
    private static let behaviourKeys: Set<String> = [
        "answerFormat", "placeholder", "readOnly", "hidden", "initial", "initialExpression", "calculatedExpression",
    ]

    /// A question item. `hintKeys` name the question's texts, in order, that may become its hint.
    /// `translated` is the survey text `text` came from, for its other languages.
    func questionItem(_ question: JSONValue, path: JSONPath, linkId: String, text: String?, translated: JSONValue? = nil, hintKeys: [String],
                      condition: FHIRExportCondition?, used: Set<String>) -> JSONValue {
        let fhir = question[fx: "fhir"]
        let mapping = formatMapping(question, path: path)
        var made: [JSONValue] = []
        if question[fx: "hidden"]?.fxBool == true {
            made.append(FHIRJSON.extensionValue(FHIRExtensionURL.hidden, "Boolean", .bool(true)))
        }
        made += variables(question[fx: "variables"])
        if let source = question[fx: "initialExpression"]?.fxText {
            made.append(FHIRJSON.extensionValue(FHIRExtensionURL.initialExpression, "Expression", FHIRJSON.expression(source)))
        }
        let calculated = question[fx: "calculatedExpression"]?.fxText
        if let calculated {
            made.append(FHIRJSON.extensionValue(FHIRExtensionURL.calculatedExpression, "Expression", FHIRJSON.expression(calculated)))
        }
        if let hint = hint(question, path: path, keys: hintKeys + ["placeholder"], regexMessage: mapping.regexMessage) {
            made.append(FHIRJSON.extensionValue(FHIRExtensionURL.entryFormat, "String", .string(hint)))
        }
        made += mapping.extensions + (condition?.extensions ?? [])
        noteUnused(question, at: path, used: used.union(Self.behaviourKeys))
        let readOnly = question[fx: "readOnly"]?.fxBool == true || calculated != nil
        return FHIRJSON.object([
            "extension": .array(merged(kept: fhir, made)),
            "linkId": .string(linkId),
            "code": fhir?[fx: "code"],
            "prefix": fhir?[fx: "prefix"]?.fxText.map(JSONValue.string),
            "text": FHIRJSON.string(FHIRExportText.withoutPrefix(text, fhir?[fx: "prefix"]?.fxText)),
            "_text": self.text.translations(translated, prefix: fhir?[fx: "prefix"]?.fxText),
            "type": .string(mapping.kind.itemType),
            "enableWhen": condition.map { .array($0.enableWhen) },
            "enableBehavior": condition?.behavior.map(JSONValue.string),
            "required": question[fx: "optional"]?.fxBool == false ? .bool(true) : nil,
            "repeats": mapping.kind.repeats ? .bool(true) : nil,
            "readOnly": readOnly ? .bool(true) : nil,
            "maxLength": mapping.maxLength.map(FHIRJSON.integer),
            "answerOption": .array(mapping.options),
            "initial": .array(mapping.initial),
        ])
    }

    /// The item's hint: the regular expression's message, else the first of the texts; a
    /// further text gets a note unless it says the same.
    private func hint(_ question: JSONValue, path: JSONPath, keys: [String], regexMessage: String?) -> String? {
        var chosen = regexMessage
        for key in keys {
            guard let text = self.text.plain(question[fx: key]), text != chosen else { continue }
            if chosen == nil {
                chosen = text
            } else {
                note(path / key, "\"\(key)\" is left out: a FHIR item has one hint (entryFormat), and it holds another text.")
            }
        }
        return chosen
    }

}
