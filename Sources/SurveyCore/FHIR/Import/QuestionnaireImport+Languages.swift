import Foundation
import JSON

extension QuestionnaireImport {
    /// A plain text of the Questionnaire with its translations (FHIR's `translation` extension
    /// on the element's `_text`, `_prefix`, `_display`…), before it becomes the survey's RichText.
    struct Phrase {
        var text: String
        /// The text in other languages, by BCP 47 tag, in the order the Questionnaire gives them.
        var translations: [(language: String, text: String)] = []

        init(_ text: String, translations: [(language: String, text: String)] = []) {
            self.text = text
            self.translations = translations
        }

        /// The parts joined language by language; a part with no text in a language gives its own.
        static func joined(_ parts: [Phrase], separator: String) -> Phrase? {
            guard !parts.isEmpty else { return nil }
            var languages: [String] = []
            for part in parts {
                for (language, _) in part.translations where !languages.contains(language) { languages.append(language) }
            }
            let base = parts.map(\.text).joined(separator: separator)
            return Phrase(base, translations: languages.map { language in
                (language, parts.map { $0.text(in: language) }.joined(separator: separator))
            })
        }

        func text(in language: String) -> String {
            translations.first { $0.language == language }?.text ?? text
        }

        /// The survey's text, made safe as RichText: one string when there is no translation,
        /// else one string per language, `base` first.
        func json(base: String) -> JSONValue {
            guard !translations.isEmpty else { return .string(Reader.richText(text)) }
            return .object(JSONObject([(base, .string(Reader.richText(text)))]
                + translations.map { ($0.language, JSONValue.string(Reader.richText($0.text))) }))
        }
    }

    static let translationURL = FHIRExtensionURL.core + "translation"
}

extension QuestionnaireImport.Reader {
    typealias Phrase = QuestionnaireImport.Phrase

    /// The language the Questionnaire is written in (its `language`, else English) and the
    /// languages its translations add, in the order they first appear: the survey's `languages`.
    func readLanguages(_ root: JSONObject) {
        if case .string(let language)? = root["language"], !language.isEmpty { baseLanguage = language }
        func scan(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for (key, member) in object.entries {
                    if key == "designation", case .array(let designations) = member {
                        for case .object(let designation) in designations {
                            if case .string(let language)? = designation["language"], language != baseLanguage,
                               !languages.contains(language) { languages.append(language) }
                        }
                    }
                    if key.hasPrefix("_") {
                        for (language, _) in translations(in: member, at: nil) where !languages.contains(language) { languages.append(language) }
                    }
                    scan(member)
                }
            case .array(let elements):
                elements.forEach(scan)
            default:
                break
            }
        }
        scan(.object(root))
    }

    /// The survey's `languages`, when the Questionnaire has translations.
    var surveyLanguages: JSONValue? {
        languages.isEmpty ? nil : .array(([baseLanguage] + languages).map(JSONValue.string))
    }

    /// `object[key]` with its translations from `object["_" + key]`; nil when there is no such string.
    func phrase(_ object: JSONObject, _ key: String, at path: JSONPath) -> Phrase? {
        guard case .string(let text)? = object[key] else { return nil }
        guard let element = object["_" + key] else { return Phrase(text) }
        return Phrase(text, translations: translations(in: element, at: path / ("_" + key)))
    }

    /// A ValueSet concept's `_display` with its designations in other languages added as
    /// translations, so that its display is read like an option's; nil when it has neither.
    static func translationElement(_ concept: JSONObject) -> JSONValue? {
        var extensions: [JSONValue] = []
        if case .object(let element)? = concept["_display"], case .array(let given)? = element["extension"] { extensions = given }
        if case .array(let designations)? = concept["designation"] {
            for case .object(let designation) in designations {
                guard case .string(let language)? = designation["language"], case .string(let value)? = designation["value"] else { continue }
                extensions.append(.object(JSONObject([
                    ("url", .string(QuestionnaireImport.translationURL)),
                    ("extension", .array([.object(JSONObject([("url", .string("lang")), ("valueCode", .string(language))])),
                                          .object(JSONObject([("url", .string("content")), ("valueString", .string(value))]))])),
                ])))
            }
        }
        return extensions.isEmpty ? nil : .object(JSONObject([("extension", .array(extensions))]))
    }

    /// The survey text for a phrase, in every language it has.
    func json(_ phrase: Phrase?) -> JSONValue? {
        phrase.map { $0.json(base: baseLanguage) }
    }

    /// The `translation` extensions of a primitive's element (`{"extension": [...]}`); with a
    /// path, each malformed one is reported, and each that repeats the base language ignored.
    private func translations(in element: JSONValue, at path: JSONPath?) -> [(language: String, text: String)] {
        guard case .array(let extensions)? = element[fx: "extension"] else { return [] }
        var found: [(language: String, text: String)] = []
        for (index, entry) in extensions.enumerated() {
            guard entry[fx: "url"] == .string(QuestionnaireImport.translationURL) else { continue }
            var language: String?
            var content: String?
            if case .array(let parts)? = entry[fx: "extension"] {
                for part in parts {
                    if part[fx: "url"] == .string("lang"), case .string(let code)? = part[fx: "valueCode"] { language = code }
                    if part[fx: "url"] == .string("content"), case .string(let text)? = part[fx: "valueString"] { content = text }
                }
            }
            guard let language, !language.isEmpty, let content else {
                if let path { warning(path / "extension" / index, "A translation needs \"lang\" (valueCode) and \"content\" (valueString); this one is ignored.") }
                continue
            }
            guard language != baseLanguage, !found.contains(where: { $0.language == language }) else { continue }
            found.append((language, content))
        }
        return found
    }
}
