import Foundation

/// The server's own words, per language. A survey's text comes from the survey; these are
/// the buttons, labels and headings around it.
public struct Catalog: Sendable {
    public let language: String
    private let words: [String: String]

    public subscript(key: String) -> String { words[key] ?? Catalog.english[key] ?? key }

    public init(language: String) {
        self.language = language
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? "en"
        words = primary == "es" ? Self.spanish : Self.english
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
