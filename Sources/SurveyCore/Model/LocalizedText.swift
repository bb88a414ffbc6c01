import Foundation
import JSON

/// Text an author wrote: one string, or one string per language (`{"en": …, "es": …}`).
///
/// Rich text (titles, step text, choice text) holds limited HTML that the rendering layer
/// sanitizes once when a survey loads; labels are the same type and are always escaped.
public struct LocalizedText: Sendable, Hashable {
    /// The text when the author gave one string for every language.
    public let universal: String?
    /// The text per BCP 47 language tag, in the author's order.
    public let translations: [(language: String, text: String)]

    public init(_ text: String) {
        universal = text
        translations = []
    }

    public init(translations: [(language: String, text: String)]) {
        universal = nil
        self.translations = translations
    }

    /// The text for a language: an exact tag, then its primary subtag, then the survey's
    /// first language, then the first one written.
    public func resolved(for language: String?, fallback: [String] = []) -> String {
        if let universal { return universal }
        if let language {
            let wanted = language.lowercased()
            if let exact = translations.first(where: { $0.language.lowercased() == wanted }) { return exact.text }
            let primary = wanted.split(separator: "-").first.map(String.init) ?? wanted
            if let match = translations.first(where: { $0.language.lowercased().split(separator: "-").first.map(String.init) == primary }) {
                return match.text
            }
        }
        for language in fallback {
            if let match = translations.first(where: { $0.language.lowercased() == language.lowercased() }) { return match.text }
        }
        return translations.first?.text ?? ""
    }

    /// The text for `language` as `resolved(for:fallback:)` picks it, with the language it is
    /// in when that is not the one asked for (a fallback); nil when it is, or when the text is
    /// the same in every language.
    public func resolvedLanguage(for language: String, fallback: [String] = []) -> String? {
        guard universal == nil, !translations.isEmpty else { return nil }
        let wanted = language.lowercased()
        let primary = wanted.split(separator: "-").first.map(String.init) ?? wanted
        if translations.contains(where: { $0.language.lowercased() == wanted
            || $0.language.lowercased().split(separator: "-").first.map(String.init) == primary }) { return nil }
        for tag in fallback where translations.contains(where: { $0.language.lowercased() == tag.lowercased() }) { return tag }
        return translations.first?.language
    }

    /// Every text this value holds, whatever the language.
    public var allTexts: [String] {
        if let universal { return [universal] }
        return translations.map(\.text)
    }

    /// Two texts are equal when they say the same in every language, whatever the key order.
    public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
        lhs.universal == rhs.universal && lhs.sortedTranslations.elementsEqual(rhs.sortedTranslations, by: ==)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(universal)
        for entry in sortedTranslations {
            hasher.combine(entry.language)
            hasher.combine(entry.text)
        }
    }

    private var sortedTranslations: [(language: String, text: String)] {
        translations.sorted { $0.language < $1.language }
    }

    var json: JSONValue {
        if let universal { return .string(universal) }
        return .object(JSONObject(translations.map { ($0.language, JSONValue.string($0.text)) }))
    }
}

extension LocalizedText: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
