import Foundation

/// RFC 4180 fields and records: a field with a comma, a quote, a line break or leading or
/// trailing space is quoted, quotes doubled; records end with CRLF.
public enum CSV {
    /// A record of fields, with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    public static func field(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Text a spreadsheet would take for a formula (it begins with `=`, `+`, `-`, `@`, a tab or
    /// a carriage return, after any apostrophes) gets one more apostrophe in front, as OWASP
    /// advises; reading drops one apostrophe from such text, so the export is reversible.
    public static func protected(_ text: String) -> String {
        looksLikeFormula(text) ? "'" + text : text
    }

    /// The text `protected` was given.
    public static func unprotected(_ text: String) -> String {
        guard text.unicodeScalars.first == "'", looksLikeFormula(text) else { return text }
        return String(text.unicodeScalars.dropFirst())
    }

    /// Whether the first character after any apostrophes starts a formula. Compared as Unicode
    /// scalars, so `=` followed by a combining accent counts too.
    private static func looksLikeFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.drop(while: { $0 == "'" }).first else { return false }
        return "=+-@\t\r".unicodeScalars.contains(first)
    }
}
