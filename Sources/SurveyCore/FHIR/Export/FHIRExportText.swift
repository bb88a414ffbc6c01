import Foundation
import JSON

/// Survey text as FHIR plain text: one language, no markup.
///
/// A survey's RichText is limited HTML, and may be an object of language tag to text. FHIR
/// `text` is a plain string, so the exports take the survey's first language (the first
/// entry of `languages`, else the object's first entry), drop the tags, decode the entities,
/// and fold every run of white space (paragraph breaks too) into one space.
struct FHIRExportText {
    /// The survey's first language, when it names its languages.
    let language: String?

    init(survey: JSONValue) {
        language = survey[fx: "languages"]?.fxArray?.first?.fxText
    }

    /// The text in the export's language, as written (markup kept).
    func raw(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?:
            return text
        case .object(let translations)?:
            if let language {
                let wanted = language.lowercased()
                if let match = translations.entries.first(where: { $0.key.lowercased() == wanted })?.value.fxString { return match }
            }
            return translations.entries.first?.value.fxString
        default:
            return nil
        }
    }

    /// The other languages of a text as the element beside a FHIR string (`_text`, `_display`):
    /// one `translation` extension per language, plain, with `prefix` taken off as from the
    /// text itself; nil when the text has one language.
    func translations(_ value: JSONValue?, prefix: String? = nil) -> JSONValue? {
        guard case .object(let texts)? = value, texts.entries.count > 1 else { return nil }
        let exported = language.flatMap { wanted in texts.entries.first { $0.key.lowercased() == wanted.lowercased() }?.key }
            ?? texts.entries.first?.key
        let extensions = texts.entries.compactMap { entry -> JSONValue? in
            guard entry.key != exported, let text = entry.value.fxString,
                  let plain = Self.withoutPrefix(Self.stripMarkup(text), prefix), !plain.isEmpty else { return nil }
            return .object([
                "url": .string(QuestionnaireImport.translationURL),
                "extension": .array([
                    .object(["url": .string("lang"), "valueCode": .string(entry.key)]),
                    .object(["url": .string("content"), "valueString": .string(plain)]),
                ]),
            ])
        }
        return extensions.isEmpty ? nil : .object(["extension": .array(extensions)])
    }

    /// The text in the export's language without markup; nil when nothing is left.
    func plain(_ value: JSONValue?) -> String? {
        guard let text = raw(value) else { return nil }
        let flat = Self.stripMarkup(text)
        return flat.isEmpty ? nil : flat
    }

    /// An item's text without the prefix the import writes before it ("1. Little interest" with
    /// `fhir.prefix` "1."), since the item carries the prefix apart.
    static func withoutPrefix(_ text: String?, _ prefix: String?) -> String? {
        guard let text, let prefix, text.hasPrefix(prefix + " ") else { return text }
        return String(text.dropFirst(prefix.count + 1))
    }

    /// Drops tags, decodes the entities limited HTML uses, and folds white space.
    static func stripMarkup(_ html: String) -> String {
        var output = ""
        var tag: String?
        for character in html {
            if var open = tag {
                if character == ">" {
                    if isBlock(open) { output.append(" ") }
                    tag = nil
                } else {
                    open.append(character)
                    tag = open
                }
            } else if character == "<" {
                tag = ""
            } else {
                output.append(character)
            }
        }
        return foldSpace(decodeEntities(output))
    }

    /// Tags that break a line: they become a space, while inline tags (`strong`, `a` …) vanish.
    private static func isBlock(_ tag: String) -> Bool {
        let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter }).lowercased()
        return ["p", "br", "li", "ul", "ol", "div"].contains(name)
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
    ]

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                output.append("&")
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            if let decoded = decode(name) {
                output += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                output.append("&")
                rest = after
            }
        }
        return output + rest
    }

    private static func decode(_ name: String) -> String? {
        if let named = namedEntities[name] { return named }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }

    private static func foldSpace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
