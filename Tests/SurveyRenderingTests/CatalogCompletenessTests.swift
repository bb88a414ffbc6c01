import Testing
@testable import SurveyRendering

@Suite("Every translated catalog covers English, placeholder for placeholder")
struct CatalogCompletenessTests {
    /// One translated catalog, named by its language in the test's report.
    struct Translation: Sendable, CustomTestStringConvertible {
        let language: String
        let words: [String: String]

        var testDescription: String { language }
    }

    /// The complete translations. A new language is one more line here.
    static let translations = [
        Translation(language: "de", words: Catalog.german),
        Translation(language: "fr", words: Catalog.french),
        Translation(language: "es", words: Catalog.spanish),
        Translation(language: "ar", words: Catalog.arabic),
    ]

    /// The placeholders of `text`, each with how often it occurs: `%@`, `%d` and `%N$@`.
    /// Any other `%` that is not followed by a space or the end of the text is returned in
    /// `stray`, so that a mistyped placeholder ("%1@", "%$1@", "%s") does not pass unseen.
    static func placeholders(_ text: String) -> (tokens: [String: Int], stray: [String]) {
        let scalars = Array(text.unicodeScalars)
        var tokens: [String: Int] = [:]
        var stray: [String] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "%" else {
                index += 1
                continue
            }
            let rest = scalars[(index + 1)...]
            if let next = rest.first, next == "@" || next == "d" {
                tokens["%" + String(Character(next)), default: 0] += 1
                index += 2
            } else if rest.count >= 3, let digit = rest.first, "123456789".unicodeScalars.contains(digit),
                      rest.dropFirst().first == "$", rest.dropFirst(2).first == "@" {
                tokens["%" + String(Character(digit)) + "$@", default: 0] += 1
                index += 4
            } else if let next = rest.first, !next.properties.isWhitespace {
                stray.append("%" + String(Character(next)))
                index += 1
            } else {
                index += 1
            }
        }
        return (tokens, stray)
    }

    @Test("Every English key is translated", arguments: CatalogCompletenessTests.translations)
    func noKeyMissing(_ translation: Translation) {
        let missing = Set(Catalog.english.keys).subtracting(translation.words.keys).sorted()
        #expect(missing.isEmpty, "\(translation.language) lacks \(missing)")
    }

    @Test("No key is translated that English lacks", arguments: CatalogCompletenessTests.translations)
    func noKeyExtra(_ translation: Translation) {
        let extra = Set(translation.words.keys).subtracting(Catalog.english.keys).sorted()
        #expect(extra.isEmpty, "\(translation.language) has keys English lacks: \(extra)")
    }

    @Test("Each entry keeps exactly the placeholders of its English entry", arguments: CatalogCompletenessTests.translations)
    func placeholdersMatch(_ translation: Translation) {
        for (key, english) in Catalog.english.sorted(by: { $0.key < $1.key }) {
            guard let translated = translation.words[key] else { continue }
            let expected = Self.placeholders(english).tokens
            let found = Self.placeholders(translated)
            #expect(found.tokens == expected, "\(translation.language) \(key): \(found.tokens) where English has \(expected)")
            #expect(found.stray.isEmpty, "\(translation.language) \(key): stray % in \(found.stray)")
        }
    }

    @Test("The placeholder reader tells tokens from a percent sign")
    func readsPlaceholders() {
        #expect(Self.placeholders("%1$@ of %2$@, %@ and %d").tokens == ["%1$@": 1, "%2$@": 1, "%@": 1, "%d": 1])
        #expect(Self.placeholders("100 % sicher, 50 %").tokens.isEmpty)
        #expect(Self.placeholders("100 % sicher, 50 %").stray.isEmpty)
        #expect(Self.placeholders("%1@ and %s").stray == ["%1", "%s"])
    }
}
