import Foundation

/// An earlier answer, a parameter or an arm piped into later text: `${selector}`, or
/// `${selector|fallback}` with the words shown when there is no answer. The selector is
/// written as a rule's `result` is (`stepId`, `stepId.itemId`, `parameters.NAME`).
public struct Placeholder: Sendable, Hashable {
    public var selector: String
    public var fallback: String?

    public init(selector: String, fallback: String?) {
        self.selector = selector
        self.fallback = fallback
    }

    /// The placeholder's text as written.
    public var source: String { "${" + selector + (fallback.map { "|" + $0 } ?? "") + "}" }

    /// Every placeholder in a text, with where it stands. A `${` that does not close, or whose
    /// selector holds anything but letters, digits, `.`, `_` and `-`, is text.
    public static func find(in text: String) -> [(range: Range<String.Index>, placeholder: Placeholder)] {
        var found: [(Range<String.Index>, Placeholder)] = []
        var searchFrom = text.startIndex
        while let open = text.range(of: "${", range: searchFrom..<text.endIndex) {
            guard let close = text[open.upperBound...].firstIndex(of: "}") else { break }
            let inside = text[open.upperBound..<close]
            let parts = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let selector = String(parts[0])
            if !selector.isEmpty, selector.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0) }) {
                found.append((open.lowerBound..<text.index(after: close), Placeholder(selector: selector, fallback: parts.count > 1 ? String(parts[1]) : nil)))
                searchFrom = text.index(after: close)
            } else {
                searchFrom = open.upperBound
            }
        }
        return found
    }
}
