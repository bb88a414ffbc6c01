import Foundation
import Testing
@testable import SurveyCore

@Suite("NumberParsing")
struct NumberParsingTests {
    static func typed(_ value: Double, _ digits: Int) -> TypedNumber { TypedNumber(value: value, fractionDigits: digits) }

    @Test("English: signs, spaces and groups",
          arguments: [
              ("0", 0.0, 0), ("42", 42, 0), (" 42 ", 42, 0), ("\t42\n", 42, 0), ("\u{00A0}42\u{00A0}", 42, 0), ("007", 7, 0),
              ("+42", 42, 0), ("-42", -42, 0), ("\u{2212}42", -42, 0), ("- 42", -42, 0), ("+ 42", 42, 0), (" \u{2212} 3.5 ", -3.5, 1),
              ("1,234", 1234, 0), ("1,234,567", 1_234_567, 0), ("12,345.678", 12345.678, 3), ("-1,000", -1000, 0),
              ("1 234", 1234, 0), ("1\u{00A0}234", 1234, 0), ("1\u{202F}234", 1234, 0), ("1'234", 1234, 0), ("1 234 567.5", 1_234_567.5, 1),
          ] as [(String, Double, Int)])
    func englishIntegersAndGroups(raw: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: "en") == Self.typed(value, digits))
        #expect(NumberParsing.parse(raw, language: nil) == Self.typed(value, digits))
    }

    @Test("English: fraction digits, not counting trailing zeros",
          arguments: [
              ("3.5", 3.5, 1), ("3.50", 3.5, 1), ("3.00", 3, 0), ("2.500", 2.5, 1), ("0.10", 0.1, 1), (".5", 0.5, 1), ("5.", 5, 0),
              ("0.001", 0.001, 3), ("-0.25", -0.25, 2), ("1,234.5", 1234.5, 1), ("1.234", 1.234, 3), ("0.0", 0, 0), ("-.5", -0.5, 1),
          ] as [(String, Double, Int)])
    func englishFractions(raw: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: "en-GB") == Self.typed(value, digits))
    }

    @Test("English refuses garbage and malformed groups",
          arguments: [
              "", " ", "abc", "1,5", "1,23", "1,2345", "12,34,567", ",123", "1,,234", "1  234", "1234,567", "1 .5", "1.2.3", "1.2,3",
              "1.5e3", "1e5", "0x1F", "--1", "+-1", "-+1", "1-", "1+", "-", "+", ".", "inf", "nan", "∞", "1_000", "$5", "5%", "½",
              "\u{FF15}", "1 ", "one", "1,234.5.6",
          ])
    func englishRefused(raw: String) {
        if raw == "1 " {
            // Trailing space is trimmed, so this one is fine.
            #expect(NumberParsing.parse(raw, language: "en") == Self.typed(1, 0))
        } else {
            #expect(NumberParsing.parse(raw, language: "en") == nil)
        }
    }

    @Test func overflowingNumbersAreRefused() {
        #expect(NumberParsing.parse(String(repeating: "9", count: 400), language: "en") == nil)
        #expect(NumberParsing.parse("1" + String(repeating: "0", count: 308), language: "en")?.value == 1e308)
    }

    @Test("German: decimal comma, point groups, and a stray point as decimal",
          arguments: [
              ("1,5", 1.5, 1), ("1.5", 1.5, 1), ("1.23", 1.23, 2), ("1.234", 1234, 0), ("1.234,5", 1234.5, 1), ("1.234.567", 1_234_567, 0),
              ("1 234,56", 1234.56, 2), ("-1,5", -1.5, 1), ("\u{2212}1,5", -1.5, 1), ("1,234", 1.234, 3), ("1,50", 1.5, 1), ("0,0", 0, 0),
              (",5", 0.5, 1), ("42", 42, 0),
          ] as [(String, Double, Int)])
    func german(raw: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: "de") == Self.typed(value, digits))
        #expect(NumberParsing.parse(raw, language: "de-AT") == Self.typed(value, digits))
    }

    @Test("German refuses malformed numbers", arguments: ["1,2,3", "1.2.3", "1,5.3", "1.23.456", "1,5,0", "abc", ",", "1.234.5"])
    func germanRefused(raw: String) {
        #expect(NumberParsing.parse(raw, language: "de") == nil)
    }

    @Test("French: spaces and narrow spaces as groups",
          arguments: [("1 234,5", 1234.5, 1), ("1\u{202F}234,5", 1234.5, 1), ("1\u{00A0}234", 1234, 0), ("3,14", 3.14, 2), ("3.14", 3.14, 2),
                      ("-0,5", -0.5, 1)] as [(String, Double, Int)])
    func french(raw: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: "fr") == Self.typed(value, digits))
        #expect(NumberParsing.parse(raw, language: "fr-CA") == Self.typed(value, digits))
    }

    @Test("which languages write a decimal comma",
          arguments: [("de", true), ("de-DE", true), ("DE-at", true), ("fr", true), ("fr-CA", true), ("es", true), ("es-ES", true),
                      ("pt-BR", true), ("ru", true), ("nl-NL", true), ("es-MX", false), ("es-US", false), ("ES-mx", false), ("en", false),
                      ("en-US", false), ("en-GB", false), ("ja", false), ("zh-Hans", false), ("", false), ("zz", false)] as [(String, Bool)])
    func decimalCommaLanguages(language: String, comma: Bool) {
        #expect(NumberParsing.usesDecimalComma(language) == comma)
    }

    @Test func noLanguageMeansDecimalPoint() {
        #expect(!NumberParsing.usesDecimalComma(nil))
        #expect(NumberParsing.parse("1,5", language: nil) == nil)
        #expect(NumberParsing.parse("1.5", language: nil) == Self.typed(1.5, 1))
    }

    @Test func mexicanSpanishUsesAPoint() {
        #expect(NumberParsing.parse("1,5", language: "es-MX") == nil)
        #expect(NumberParsing.parse("1,500", language: "es-MX") == Self.typed(1500, 0))
        #expect(NumberParsing.parse("1,5", language: "es") == Self.typed(1.5, 1))
    }

    static let ourLanguages: [String?] = ["en", "es", "de", "fr", "ar", nil]

    @Test("Spanish, German and French: a decimal comma, point or space groups",
          arguments: ["es", "de", "fr"],
          [("1.234,5", 1234.5, 1), ("1\u{00A0}234,5", 1234.5, 1), ("1\u{202F}234,5", 1234.5, 1), ("1 234,5", 1234.5, 1), ("1,5", 1.5, 1),
           ("-1.234.567,25", -1_234_567.25, 2)] as [(String, Double, Int)])
    func decimalCommaLanguages(language: String, example: (String, Double, Int)) {
        #expect(NumberParsing.parse(example.0, language: language) == Self.typed(example.1, example.2))
    }

    @Test("English: a comma groups and a point is decimal",
          arguments: [("1,234.5", 1234.5, 1), ("1\u{00A0}234.5", 1234.5, 1), ("1\u{202F}234.5", 1234.5, 1), ("1.5", 1.5, 1)] as [(String, Double, Int)])
    func englishGroupsBeforeAPoint(raw: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: "en") == Self.typed(value, digits))
        #expect(NumberParsing.parse(raw, language: "en-US") == Self.typed(value, digits))
    }

    @Test("Arabic-Indic and Eastern Arabic digits, and the Arabic separators, read in every language",
          arguments: NumberParsingTests.ourLanguages,
          [("\u{0661}\u{0662}", 12.0, 0), ("\u{06F1}\u{06F2}", 12, 0), ("\u{0660}", 0, 0), ("\u{0669}\u{0668}\u{0667}\u{0666}\u{0665}", 98765, 0),
           ("\u{06F4}\u{06F3}\u{06F2}\u{06F1}\u{06F0}", 43210, 0), ("\u{0663}\u{066B}\u{0665}", 3.5, 1), ("\u{06F3}\u{066B}\u{06F5}\u{06F0}", 3.5, 1),
           ("\u{0661}\u{066C}\u{0662}\u{0663}\u{0664}\u{066B}\u{0665}", 1234.5, 1), ("\u{0661}\u{00A0}\u{0662}\u{0663}\u{0664}", 1234, 0),
           ("-\u{0664}\u{0662}", -42, 0), ("\u{2212}\u{0664}\u{0662}", -42, 0), ("\u{200F}\u{0664}\u{0662}\u{200F}", 42, 0),
           ("\u{061C}-\u{0665}", -5, 0), ("1\u{066B}5", 1.5, 1), ("1\u{066C}234", 1234, 0), ("\u{066B}\u{0665}", 0.5, 1)]
              as [(String, Double, Int)])
    func arabicDigits(language: String?, example: (String, Double, Int)) {
        #expect(NumberParsing.parse(example.0, language: language) == Self.typed(example.1, example.2))
    }

    @Test("Arabic digits with the language's own separators",
          arguments: [("\u{0661}\u{0662}.\u{0665}", "en", 12.5, 1), ("\u{0661},\u{0662}\u{0663}\u{0664}.\u{0665}", "en", 1234.5, 1),
                      ("\u{0661}\u{0662},\u{0665}", "de", 12.5, 1), ("\u{0661}.\u{0662}\u{0663}\u{0664},\u{0665}", "es", 1234.5, 1),
                      ("\u{0661}\u{202F}\u{0662}\u{0663}\u{0664},\u{0665}", "fr", 1234.5, 1), ("\u{0661}\u{0662}.\u{0665}", "ar", 12.5, 1)]
              as [(String, String, Double, Int)])
    func arabicDigitsLatinSeparators(raw: String, language: String, value: Double, digits: Int) {
        #expect(NumberParsing.parse(raw, language: language) == Self.typed(value, digits))
    }

    @Test("A number that reads two ways is refused, not guessed",
          arguments: [
              ("1.234,5", "en"), ("1,5", "en"), ("1,5", "ar"), ("1,234.5", "es"), ("1,234.5", "de"), ("1,234.5", "fr"),
              ("1.234.5", "fr"), ("1,234,5", "de"),
              // Arabic separators with Latin ones: which is the decimal?
              ("1,234\u{066B}5", "en"), ("1.234\u{066B}5", "de"), ("1\u{066C}234.5", "en"), ("1\u{066C}234,5", "fr"),
              ("1\u{066B}5.0", "ar"), ("\u{0661}\u{066B}\u{0662}\u{066B}\u{0663}", "ar"),
              // Malformed Arabic groups.
              ("\u{0661}\u{066C}\u{0662}\u{0663}", "ar"), ("\u{0661}\u{066C}\u{0662}\u{0663}\u{0664}\u{0665}", "en"), ("\u{066C}\u{0661}\u{0662}\u{0663}", "ar"),
              ("\u{066B}", "ar"), ("\u{066C}", "ar"), ("\u{0661}\u{066B}\u{0662}\u{066C}\u{0663}", "ar"),
              // Digits of other scripts are not read.
              ("\u{FF11}\u{FF12}", "ar"), ("\u{0967}\u{0968}", "en"),
          ] as [(String, String)])
    func ambiguousRefused(raw: String, language: String) {
        #expect(NumberParsing.parse(raw, language: language) == nil)
    }

    @Test("Arabic-Indic and Eastern Arabic digits become ASCII digits, and nothing else changes",
          arguments: Array(0...9))
    func localeDigits(digit: Int) {
        let ascii = String(digit)
        let arabicIndic = String(Character(Unicode.Scalar(0x0660 + UInt32(digit))!))
        let eastern = String(Character(Unicode.Scalar(0x06F0 + UInt32(digit))!))
        #expect(LocaleDigits.ascii(arabicIndic) == ascii)
        #expect(LocaleDigits.ascii(eastern) == ascii)
        #expect(LocaleDigits.ascii("x" + arabicIndic + eastern + ascii + "\u{066B}") == "x" + ascii + ascii + ascii + "\u{066B}")
    }

    @Test func localeDigitsLeaveOtherTextAlone() {
        for text in ["", "abc", "12:30", "مارس", "\u{FF15}", "e\u{301}", "1,5", "\u{066B}\u{066C}"] {
            #expect(LocaleDigits.ascii(text) == text)
        }
        #expect(LocaleDigits.ascii("\u{200E}\u{0661}\u{200F}\u{061C}") == "1")
    }

    @Test func negativeZeroIsZero() {
        let parsed = NumberParsing.parse("-0", language: "en")
        #expect(parsed?.value == 0)
        #expect(parsed?.fractionDigits == 0)
    }
}
