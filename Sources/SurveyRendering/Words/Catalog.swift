import Foundation

/// The server's own words, per language: the buttons, labels and headings around a survey's
/// own text, the problems a participant corrects, and dates. A key a language lacks is taken
/// from English.
public struct Catalog: Sendable {
    public let language: String
    private let words: [String: String]

    public subscript(key: String) -> String { words[key] ?? Catalog.english[key] ?? key }

    /// Every catalog by its primary language subtag; one file per language in this folder.
    static let catalogs: [String: [String: String]] = [
        "en": english, "es": spanish, "de": german, "fr": french, "ar": arabic,
    ]

    /// The languages the product has words for.
    public static let languages = catalogs.keys.sorted()

    public init(language: String) {
        self.language = language
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? "en"
        words = Self.catalogs[primary] ?? Self.english
    }

    /// Whether the language is written right to left.
    public static func isRightToLeft(_ language: String) -> Bool {
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return ["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku"].contains(primary)
    }

    public func format(_ key: String, _ number: Int) -> String {
        self[key].replacingOccurrences(of: "%d", with: String(number))
    }

    /// "2 of 5": where a step stands in the survey.
    public func progress(_ current: Int, of total: Int) -> String {
        self["progress"].replacingOccurrences(of: "%1$@", with: String(current)).replacingOccurrences(of: "%2$@", with: String(total))
    }

    /// The sentence of an error page that gives the reference of the failed request.
    public func reference(_ requestID: String) -> String {
        self["errorReference"].replacingOccurrences(of: "%@", with: requestID)
    }
}
