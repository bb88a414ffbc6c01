import Foundation
import JSON

/// The languages of an XLSForm's `label::English (en)` columns, as the survey's BCP 47 tags:
/// the code in parentheses, else the language's English name looked up, else the name itself.
struct XLSFormLanguages {
    /// The tags, the default first.
    let tags: [String]
    /// The tag of each column suffix (`English (en)` → `en`).
    private let bySuffix: [String: String]
    /// The language of a plain `label` column beside translated ones: pyxform's "default", read
    /// as the settings' default language, else English.
    private let plainTag: String?

    private static let names = ["english": "en", "spanish": "es", "español": "es", "french": "fr", "français": "fr",
                                "german": "de", "deutsch": "de", "arabic": "ar", "portuguese": "pt", "swahili": "sw",
                                "hindi": "hi", "chinese": "zh", "russian": "ru", "italian": "it", "dutch": "nl", "amharic": "am",
                                "eng": "en", "spa": "es", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "ara": "ar",
                                "por": "pt", "rus": "ru", "swa": "sw", "bengali": "bn", "hausa": "ha", "yoruba": "yo", "indonesian": "id", "nepali": "ne", "urdu": "ur"]

    init(columns: [String], defaultLanguage: String?) {
        var bySuffix: [String: String] = [:]
        var tags: [String] = []
        for column in columns {
            // Only the texts' columns name languages: `media::audio::…` names a file.
            guard let range = column.range(of: "::"), Self.textColumns.contains(String(column[..<range.lowerBound])) else { continue }
            let suffix = String(column[range.upperBound...])
            let tag = Self.tag(suffix)
            bySuffix[suffix] = tag
            if !tags.contains(tag) { tags.append(tag) }
        }
        var plain: String?
        if !tags.isEmpty, columns.contains(where: { Self.textColumns.contains($0) }) {
            // English, unless a translated column is English already: then pyxform's "default" is undetermined.
            plain = defaultLanguage.map(Self.tag) ?? (tags.contains("en") ? "und" : "en")
        }
        if let first = defaultLanguage.map(Self.tag) ?? plain {
            tags.removeAll { $0 == first }
            tags.insert(first, at: 0)
        }
        self.tags = tags
        self.bySuffix = bySuffix
        plainTag = plain
    }

    static let textColumns: Set<String> = ["label", "hint", "guidance_hint", "constraint_message", "required_message"]

    static func tag(_ suffix: String) -> String {
        if let open = suffix.lastIndex(of: "("), let close = suffix.lastIndex(of: ")"), open < close {
            return String(suffix[suffix.index(after: open)..<close]).trimmingSpaces
        }
        let name = suffix.trimmingSpaces.lowercased()
        if let known = names[name] { return known }
        let kept = name.filter { $0.isLetter }
        return kept.isEmpty ? "und" : String(kept.prefix(8))
    }

    /// A text column (`label`, `hint`, `constraint_message`) of a row: one string, or one per language.
    func text(_ cells: [String: String], _ column: String) -> JSONValue? {
        guard tags.count > 1 || cells.keys.contains(where: { $0.hasPrefix(column + "::") }) else {
            return cells[column].map(JSONValue.string)
        }
        var object = JSONObject()
        for (key, value) in cells.sorted(by: { $0.key < $1.key }) where key.hasPrefix(column + "::") {
            if let tag = bySuffix[String(key.dropFirst(column.count + 2))] { object[tag] = .string(value) }
        }
        if let plain = cells[column], let tag = plainTag ?? tags.first, object[tag] == nil { object[tag] = .string(plain) }
        if object.isEmpty { return nil }
        if tags.count <= 1, let only = object.entries.first?.value { return only }
        // Ordered as the survey lists its languages.
        return .object(JSONObject(tags.compactMap { tag in object[tag].map { (tag, $0) } }))
    }
}
