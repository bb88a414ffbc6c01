import Foundation

/// A piece of HTML that is safe to insert into a page unescaped.
///
/// Values of this type come from exactly two places:
/// - ``HTMLSanitizer/sanitize(_:)``, which reduces a RichText fragment to the
///   allowlist of the survey format (`p br strong em b i u ul ol li a[href]`);
/// - ``escaping(_:)``, which turns plain text into HTML by escaping it.
///
/// The memberwise initialiser is deliberately not public, so code outside this
/// module cannot wrap an arbitrary string and have it rendered raw.
public struct SanitizedHTML: Sendable, Hashable, CustomStringConvertible {
    /// The markup, ready to be emitted as is (e.g. through a triple mustache).
    public let html: String

    /// Wraps markup that this module has already made safe. Only the sanitizer
    /// and ``escaping(_:)`` may call it.
    init(trustedHTML html: String) {
        self.html = html
    }

    /// No markup at all.
    public static let empty = SanitizedHTML(trustedHTML: "")

    /// Plain text as HTML: `&`, `<`, `>`, `"` and `'` become character references,
    /// everything else (including non-ASCII text) is kept as is.
    public static func escaping(_ text: String) -> SanitizedHTML {
        SanitizedHTML(trustedHTML: HTMLEscaping.escape(text))
    }

    /// True when there is no markup.
    public var isEmpty: Bool { html.isEmpty }

    public var description: String { html }

    /// The markup marked as written in `language`: phrasing wrapped in a `span`, or each
    /// paragraph and list given the attributes, as a `span` cannot hold them.
    func marked(language: String) -> SanitizedHTML {
        guard !html.isEmpty, language.utf8.allSatisfy({ $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "&") }) else {
            return self
        }
        let attributes = " lang=\"\(language)\" dir=\"\(Catalog.isRightToLeft(language) ? "rtl" : "ltr")\""
        if !html.contains("<p>") && !html.contains("<ul>") && !html.contains("<ol>") {
            return SanitizedHTML(trustedHTML: "<span\(attributes)>" + html + "</span>")
        }
        var marked = html
        for tag in ["p", "ul", "ol"] { marked = marked.replacingOccurrences(of: "<\(tag)>", with: "<\(tag)\(attributes)>") }
        return SanitizedHTML(trustedHTML: marked)
    }

    /// The markup with its links' tags taken out and their words kept. Sanitized markup
    /// escapes every `<` of text and every `>` of an attribute, so a `<a` here is a tag.
    public var withoutLinks: SanitizedHTML {
        guard html.contains("<a") else { return self }
        var output = ""
        var rest = Substring(html)
        while let open = rest.range(of: "<a") {
            let afterName = rest[open.upperBound...].first
            output += rest[..<open.lowerBound]
            if afterName == " " || afterName == ">", let close = rest[open.upperBound...].firstIndex(of: ">") {
                rest = rest[rest.index(after: close)...]
            } else {
                output += "<a"
                rest = rest[open.upperBound...]
            }
        }
        output += rest
        return SanitizedHTML(trustedHTML: output.replacingOccurrences(of: "</a>", with: ""))
    }
}
