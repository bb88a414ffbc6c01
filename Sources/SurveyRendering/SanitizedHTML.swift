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
        SanitizedHTML(trustedHTML: SanitizerEscaping.escape(text))
    }

    /// True when there is no markup.
    public var isEmpty: Bool { html.isEmpty }

    public var description: String { html }
}

/// The one escaping routine used for text and attribute values alike.
enum SanitizerEscaping {
    /// Escapes `& < > " '`. Safe in text content and in double- or single-quoted
    /// attribute values.
    static func escape(_ text: some StringProtocol) -> String {
        // Fast path: most labels have nothing to escape.
        guard text.utf8.contains(where: needsEscaping) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        escape(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the escaped UTF-8 of `text` to `out`.
    ///
    /// Works on UTF-8 code units, not Characters: a `<` followed by a combining
    /// mark is one Swift Character but still a `<` to an HTML parser.
    static func escape(_ text: some StringProtocol, into out: inout [UInt8]) {
        escape(utf8: text.utf8, into: &out)
    }

    /// Appends the escaped form of some UTF-8 code units to `out`.
    static func escape(utf8: some Sequence<UInt8>, into out: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }
}
