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
              "\u{0661}\u{0662}", "\u{FF15}", "1 ", "one", "1,234.5.6",
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

    @Test func negativeZeroIsZero() {
        let parsed = NumberParsing.parse("-0", language: "en")
        #expect(parsed?.value == 0)
        #expect(parsed?.fractionDigits == 0)
    }
}
