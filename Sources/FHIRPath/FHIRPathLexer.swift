import Foundation
import JSON

/// A token of a FHIRPath expression, with the character offset where it starts and its source text.
struct FHIRPathToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A plain name; keywords such as `and` or `div` are names until the parser reads them as operators.
        case identifier(String)
        /// A `backtick` name, never a keyword.
        case delimitedIdentifier(String)
        case string(String)
        /// An integer or decimal number as written.
        case number(String)
        case date(String), dateTime(String), time(String)
        /// `%name`, `%'name'` or `%`name``.
        case constant(String)
        /// `$this`, `$index`, `$total`.
        case special(String)
        /// Punctuation and symbolic operators.
        case symbol(String)
        case end
    }

    let kind: Kind
    let position: Int
    let text: String
}

/// Splits an expression into tokens, refusing characters and operators outside the grammar.
struct FHIRPathLexer {
    private let characters: [Character]
    private var index = 0
    private var tokens: [FHIRPathToken] = []

    static func tokens(of source: String) throws(FHIRPathError) -> [FHIRPathToken] {
        var lexer = FHIRPathLexer(characters: Array(source))
        try lexer.run()
        return lexer.tokens
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private static let symbols: Set<String> = ["(", ")", "[", "]", "{", "}", ".", ",", "+", "-", "*", "/", "&", "|",
                                               "=", "~", "<", ">", "<=", ">=", "!=", "!~"]
    /// Operators from other languages, with the FHIRPath way to write them.
    private static let foreignOperators: [String: String] = [
        "==": "use '=' to compare", "&&": "use 'and'", "||": "use 'or'", "<>": "use '!='", "**": "there is no power operator",
        "!": "use 'not()'", "^": "there is no power operator", "%": "use 'mod'", "=>": "", "->": "", "?": "use 'iif()'",
        ":": "", ";": "", "#": "", "\\": "",
    ]

    private func character(at offset: Int) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func run() throws(FHIRPathError) {
        while true {
            try skipSpaceAndComments()
            guard let first = character(at: 0) else {
                tokens.append(FHIRPathToken(kind: .end, position: index, text: ""))
                return
            }
            let start = index
            let kind: FHIRPathToken.Kind
            if FHIRPathCharacters.isNameStart(first) {
                kind = .identifier(name())
            } else if FHIRPathCharacters.isDigit(first) {
                kind = .number(number())
            } else {
                switch first {
                case "'": kind = .string(try quoted("'"))
                case "`": kind = .delimitedIdentifier(try quoted("`"))
                case "@": kind = try temporal()
                case "%" where character(at: 1).map { FHIRPathCharacters.isNameStart($0) || $0 == "'" || $0 == "`" } == true:
                    index += 1
                    let next = characters[index]
                    kind = .constant(next == "'" || next == "`" ? try quoted(next) : name())
                case "$" where character(at: 1).map(FHIRPathCharacters.isNameStart) == true:
                    index += 1
                    kind = .special(name())
                case "\"":
                    throw FHIRPathError("Strings are written in single quotes, not double quotes.", at: start)
                default:
                    kind = .symbol(try symbol())
                }
            }
            tokens.append(FHIRPathToken(kind: kind, position: start, text: String(characters[start..<index])))
        }
    }

    private mutating func skipSpaceAndComments() throws(FHIRPathError) {
        while let next = character(at: 0) {
            if next == " " || next == "\t" || next == "\n" || next == "\r" || next == "\u{0C}" {
                index += 1
            } else if next == "/", character(at: 1) == "/" {
                while let c = character(at: 0), c != "\n", c != "\r" { index += 1 }
            } else if next == "/", character(at: 1) == "*" {
                let start = index
                index += 2
                while !(character(at: 0) == "*" && character(at: 1) == "/") {
                    guard character(at: 0) != nil else { throw FHIRPathError("The comment opened here is never closed.", at: start) }
                    index += 1
                }
                index += 2
            } else {
                return
            }
        }
    }

    private mutating func name() -> String {
        let start = index
        while let c = character(at: 0), FHIRPathCharacters.isNamePart(c) { index += 1 }
        return String(characters[start..<index])
    }

    /// Digits, with a fraction only when a digit follows the point (so `1.toString()` calls a function).
    private mutating func number() -> String {
        let start = index
        while let c = character(at: 0), FHIRPathCharacters.isDigit(c) { index += 1 }
        if character(at: 0) == ".", let c = character(at: 1), FHIRPathCharacters.isDigit(c) {
            index += 1
            while let c = character(at: 0), FHIRPathCharacters.isDigit(c) { index += 1 }
        }
        return String(characters[start..<index])
    }

    /// A string or delimited name between `quote`s, with its escapes resolved.
    private mutating func quoted(_ quote: Character) throws(FHIRPathError) -> String {
        let start = index
        index += 1
        var text = ""
        while true {
            guard let c = character(at: 0) else {
                let what = quote == "'" ? "string" : "quoted name"
                throw FHIRPathError("The \(what) opened here is never closed.", at: start)
            }
            index += 1
            if c == quote { return text }
            guard c == "\\" else {
                text.append(c)
                continue
            }
            guard let escaped = character(at: 0) else { continue }
            index += 1
            switch escaped {
            case "'", "\"", "`", "\\", "/": text.append(escaped)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "f": text.append("\u{0C}")
            case "u":
                let hex = (0..<4).compactMap { character(at: $0) }
                guard hex.count == 4, let code = UInt32(String(hex), radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw FHIRPathError("The escape '\\u' needs four hexadecimal digits naming a character.", at: index - 2)
                }
                text.unicodeScalars.append(scalar)
                index += 4
            default:
                throw FHIRPathError("The escape '\\\(escaped)' is not known.", at: index - 2)
            }
        }
    }

    private mutating func temporal() throws(FHIRPathError) -> FHIRPathToken.Kind {
        let start = index
        guard let (value, end) = FHIRPathTemporal.scan(characters, from: index + 1),
              end >= characters.count || !FHIRPathCharacters.isNamePart(characters[end]) else {
            var end = index + 1
            while end < characters.count, FHIRPathCharacters.isNamePart(characters[end]) || "-:.+".contains(characters[end]) { end += 1 }
            throw FHIRPathError("'\(String(characters[start..<end]))' is not a valid date, date-time or time.", at: start)
        }
        index = end
        var text = String(characters[(start + 1)..<end])
        switch value.kind {
        case .date: return .date(text)
        case .time: return .time(String(text.dropFirst()))
        case .dateTime:
            if text.hasSuffix("T") { text.removeLast() }
            return .dateTime(text)
        }
    }

    private mutating func symbol() throws(FHIRPathError) -> String {
        let start = index
        let pair = String(characters[index..<min(index + 2, characters.count)])
        let single = String(characters[index])
        for candidate in [pair, single] {
            if Self.symbols.contains(candidate) {
                index += candidate.count
                return candidate
            }
            if let advice = Self.foreignOperators[candidate] {
                let tail = advice.isEmpty ? "" : "; \(advice)"
                throw FHIRPathError("The operator '\(candidate)' is not supported\(tail).", at: start)
            }
        }
        throw FHIRPathError("The character '\(single)' is not allowed here.", at: start)
    }
}
