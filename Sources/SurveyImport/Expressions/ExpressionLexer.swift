import Foundation
/// Splits an expression into tokens, reading each dialect's own spellings: REDCap's `[field]`,
/// `[field(code)]` and `<>`; XLSForm's `${field}`, `.`, `!=`, `div` and hyphenated function names.
struct ExpressionLexer {
    let source: String
    let dialect: ExpressionParser.Dialect

    func tokens() throws(ImportExpressionError) -> [ExpressionParser.Token] {
        let characters = Array(source)
        var tokens: [ExpressionParser.Token] = []
        var index = 0
        func peek(_ offset: Int = 0) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
                continue
            }
            switch character {
            case "(": tokens.append(.open); index += 1
            case ")": tokens.append(.close); index += 1
            case ",": tokens.append(.comma); index += 1
            case "+": tokens.append(.op(.plus)); index += 1
            case "-": tokens.append(.op(.minus)); index += 1
            case "*": tokens.append(.op(.times)); index += 1
            case "/": tokens.append(.op(.divide)); index += 1
            case "^" where dialect == .redcap: tokens.append(.op(.power)); index += 1
            case "=":
                tokens.append(.op(.equal))
                index += peek(1) == "=" ? 2 : 1
            case "!" where peek(1) == "=":
                tokens.append(.op(.notEqual)); index += 2
            case "<":
                if peek(1) == ">" { tokens.append(.op(.notEqual)); index += 2 }
                else if peek(1) == "=" { tokens.append(.op(.lessOrEqual)); index += 2 }
                else { tokens.append(.op(.less)); index += 1 }
            case ">":
                if peek(1) == "=" { tokens.append(.op(.greaterOrEqual)); index += 2 } else { tokens.append(.op(.greater)); index += 1 }
            case "&" where peek(1) == "&": tokens.append(.op(.and)); index += 2
            case "|" where peek(1) == "|": tokens.append(.op(.or)); index += 2
            case "'", "\"":
                guard let end = characters[(index + 1)...].firstIndex(of: character) else {
                    throw ImportExpressionError("A text in quotes is never closed.")
                }
                tokens.append(.text(String(characters[(index + 1)..<end])))
                index = end + 1
            case "[" where dialect == .redcap:
                guard let end = characters[index...].firstIndex(of: "]") else { throw ImportExpressionError("A \"[\" is never closed.") }
                let inside = String(characters[(index + 1)..<end])
                if case .field? = tokens.last, characters[index - 1] == "]" {
                    throw ImportExpressionError("[\(inside)] after a field names an event or an instance, which a survey of one instrument does not have.")
                }
                tokens.append(try redcapReference(inside))
                index = end + 1
            case "$" where dialect == .xlsform && peek(1) == "{":
                guard let end = characters[index...].firstIndex(of: "}") else { throw ImportExpressionError("A \"${\" is never closed.") }
                tokens.append(.field(String(characters[(index + 2)..<end]).trimmingSpaces))
                index = end + 1
            case "." where dialect == .xlsform && !(peek(1)?.isNumber ?? false):
                if peek(1) == "." { throw ImportExpressionError("\"..\" (the parent group) is not supported; name the field with ${…}.") }
                tokens.append(.current); index += 1
            default:
                if character.isNumber || character == "." {
                    var end = index
                    while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
                    tokens.append(.number(String(characters[index..<end])))
                    index = end
                } else if character.isLetter || character == "_" {
                    var end = index
                    while end < characters.count, Self.continuesName(characters[end], dialect: dialect) { end += 1 }
                    let word = String(characters[index..<end])
                    index = end
                    switch word.lowercased() {
                    case "and": tokens.append(.op(.and))
                    case "or": tokens.append(.op(.or))
                    case "div" where dialect == .xlsform: tokens.append(.op(.divide))
                    case "mod" where dialect == .xlsform: tokens.append(.op(.modulo))
                    default: tokens.append(.name(word.lowercased()))
                    }
                } else {
                    throw ImportExpressionError("The character \"\(character)\" is not part of the expression language.")
                }
            }
        }
        return tokens
    }

    private static func continuesName(_ character: Character, dialect: ExpressionParser.Dialect) -> Bool {
        character.isLetter || character.isNumber || character == "_" || (dialect == .xlsform && (character == "-" || character == ":"))
    }

    /// `[field]` or `[field(code)]`; a smart variable (`[record-name]`) or a modifier is refused.
    private func redcapReference(_ inside: String) throws(ImportExpressionError) -> ExpressionParser.Token {
        let trimmed = inside.trimmingSpaces
        if trimmed.contains(":") || trimmed.contains("-") {
            throw ImportExpressionError("[\(trimmed)] is a smart variable or names an event, which a survey of one instrument cannot know.")
        }
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            let name = String(trimmed[..<open])
            let code = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            return .checkbox(name, code)
        }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw ImportExpressionError("[\(trimmed)] is not a field name.")
        }
        return .field(trimmed)
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
