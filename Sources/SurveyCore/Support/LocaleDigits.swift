import Foundation
import JSON

/// Digits as participants type them in any of the survey's languages, read as ASCII digits.
///
/// Arabic keyboards type Arabic-Indic digits (U+0660–U+0669, "١٢٣"), and Persian and Urdu ones
/// Eastern Arabic digits (U+06F0–U+06F9, "۱۲۳"). Each is the same decimal digit as its ASCII
/// counterpart, so every language accepts them: nobody types them by mistake for something
/// else. The bidirectional marks a right-to-left keyboard may slip around a number (LRM, RLM,
/// ALM) carry no value and are dropped. Separators are not touched here: which character is a
/// decimal separator depends on the language, and only `NumberParsing` decides that.
public enum LocaleDigits {
    /// The text with every Arabic-Indic and Eastern Arabic digit replaced by its ASCII digit and
    /// bidirectional marks removed; everything else is left as it is.
    public static func ascii(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsRewriting($0) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let digit = asciiDigit(scalar) {
                scalars.append(digit)
            } else if !bidiMarks.contains(scalar.value) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The ASCII digit of an Arabic-Indic or Eastern Arabic digit; nil for anything else.
    static func asciiDigit(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        for zero in [arabicIndicZero, easternArabicZero] where (zero...(zero + 9)).contains(scalar.value) {
            return Unicode.Scalar(UInt8(ascii: "0") + UInt8(scalar.value - zero))
        }
        return nil
    }

    static let arabicIndicZero: UInt32 = 0x0660
    static let easternArabicZero: UInt32 = 0x06F0
    /// LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK, ARABIC LETTER MARK.
    static let bidiMarks: Set<UInt32> = [0x200E, 0x200F, 0x061C]

    private static func needsRewriting(_ scalar: Unicode.Scalar) -> Bool {
        asciiDigit(scalar) != nil || bidiMarks.contains(scalar.value)
    }
}
