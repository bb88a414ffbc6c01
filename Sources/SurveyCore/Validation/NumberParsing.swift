import Foundation
import JSON

/// Reads numbers the way people type them: spaces around, a minus or plus sign, digit
/// groups ("1,234" or "1 234"), a decimal comma in the languages that use one, and Arabic
/// digits and separators ("١٬٢٣٤٫٥") in every language. What cannot be read one way only is
/// refused, never guessed: "1,5" in English, "1.234,5" in English, "1,234.5" in German.
public enum NumberParsing {
    /// ARABIC DECIMAL SEPARATOR and ARABIC THOUSANDS SEPARATOR: they mean one thing in any
    /// language, so a number written with them is read with them alone.
    static let arabicDecimal: Character = "\u{066B}"
    static let arabicGroup: Character = "\u{066C}"

    /// Languages whose decimal separator is a comma.
    static let commaLanguages: Set<String> = [
        "af", "az", "be", "bg", "bs", "ca", "cs", "da", "de", "el", "es", "et", "eu", "fi", "fo", "fr", "gl", "hr", "hu",
        "hy", "id", "is", "it", "ka", "kk", "ky", "lt", "lv", "mk", "mn", "nb", "nl", "nn", "no", "pl", "pt", "ro", "ru",
        "sk", "sl", "sq", "sr", "sv", "tr", "uk", "uz", "vi",
    ]

    /// True when the language writes "1,5" for one and a half.
    public static func usesDecimalComma(_ language: String?) -> Bool {
        guard let language else { return false }
        let primary = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        if language.lowercased() == "es-mx" || language.lowercased() == "es-us" { return false }
        return commaLanguages.contains(primary)
    }

    public static func parse(_ raw: String, language: String?) -> TypedNumber? {
        var text = LocaleDigits.ascii(raw).trimmingCharacters(in: .whitespacesAndNewlines)
        text = text.replacingOccurrences(of: "\u{2212}", with: "-")
        guard !text.isEmpty else { return nil }
        var negative = false
        if text.hasPrefix("-") || text.hasPrefix("+") {
            negative = text.hasPrefix("-")
            text.removeFirst()
            text = text.trimmingCharacters(in: .whitespaces)
        }
        guard let (decimal, group) = separators(of: text, language: language) else { return nil }
        var integerPart = Substring(text)
        var fractionPart: Substring = ""
        let decimals = text.filter { $0 == decimal }.count
        if decimals > 1 { return nil }
        if decimals == 1, let index = text.firstIndex(of: decimal) {
            integerPart = text[..<index]
            fractionPart = text[text.index(after: index)...]
        } else if decimal == ",", text.filter({ $0 == "." }).count == 1, let index = text.firstIndex(of: "."),
                  text[text.index(after: index)...].count != 3 {
            // "1.5" in a decimal-comma language is a slip for "1,5", not a group.
            integerPart = text[..<index]
            fractionPart = text[text.index(after: index)...]
        }
        guard let digits = ungroup(integerPart, group: group) else { return nil }
        guard fractionPart.allSatisfy(\.isASCIIDigit) else { return nil }
        if digits.isEmpty && fractionPart.isEmpty { return nil }
        let normalized = (digits.isEmpty ? "0" : digits) + (fractionPart.isEmpty ? "" : "." + fractionPart)
        guard let value = Double(normalized), value.isFinite else { return nil }
        let significant = fractionPart.reversed().drop(while: { $0 == "0" }).count
        return TypedNumber(value: negative ? -value : value, fractionDigits: significant)
    }

    /// The decimal and group separators to read the text with: Arabic ones when it has any
    /// (and then no Latin comma or point, which would leave two readings), else the language's.
    private static func separators(of text: String, language: String?) -> (decimal: Character, group: Character)? {
        if text.contains(arabicDecimal) || text.contains(arabicGroup) {
            return text.contains(",") || text.contains(".") ? nil : (arabicDecimal, arabicGroup)
        }
        return usesDecimalComma(language) ? (",", ".") : (".", ",")
    }

    /// Integer digits with group separators removed, when the groups are well formed.
    private static func ungroup(_ text: Substring, group: Character) -> String? {
        let separators: Set<Character> = [group, " ", "\u{00A0}", "\u{202F}", "'"]
        guard text.contains(where: { separators.contains($0) }) else {
            return text.allSatisfy(\.isASCIIDigit) ? String(text) : nil
        }
        let groups = text.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        guard let first = groups.first, (1...3).contains(first.count),
              groups.dropFirst().allSatisfy({ $0.count == 3 }),
              groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return groups.joined()
    }
}
