import Foundation
import JSON

/// Reads tokens into a syntax tree by FHIRPath precedence, refusing what the supported subset leaves out.
struct FHIRPathParser {
    private let tokens: [FHIRPathToken]
    private var index = 0
    private var depth = 0
    /// Every `%name` the expression uses.
    private(set) var constants: Set<String> = []

    private static let maximumDepth = 100
    /// Keywords that are operators and never names at the start of a term.
    private static let operatorKeywords: Set<String> = ["div", "mod", "and", "or", "xor", "implies"]
    private static let calendarUnits: Set<String> = [
        "year", "years", "month", "months", "week", "weeks", "day", "days",
        "hour", "hours", "minute", "minutes", "second", "seconds", "millisecond", "milliseconds",
    ]

    static func parse(_ source: String) throws(FHIRPathError) -> (FHIRPathNode, constants: Set<String>) {
        var parser = FHIRPathParser(tokens: try FHIRPathLexer.tokens(of: source))
        guard parser.current.kind != .end else { throw FHIRPathError("The expression is empty.", at: 0) }
        let root = try parser.expression()
        guard parser.current.kind == .end else { throw parser.unexpected(after: "a complete expression") }
        return (root, parser.constants)
    }

    private init(tokens: [FHIRPathToken]) {
        self.tokens = tokens
    }

    private var current: FHIRPathToken { tokens[index] }

    private mutating func advance() -> FHIRPathToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    // MARK: Operators

    private mutating func expression(above minimum: Int = 0) throws(FHIRPathError) -> FHIRPathNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw FHIRPathError("The expression is nested too deeply.", at: current.position) }
        var left = try unary()
        while let op = try binaryOperator(), op.precedence > minimum {
            let token = advance()
            let right = try expression(above: op.precedence)
            left = FHIRPathNode(kind: .binary(op, left, right), position: token.position)
        }
        return left
    }

    /// The operator at the current token, if it is one; refuses `is` and `as`.
    private func binaryOperator() throws(FHIRPathError) -> FHIRPathOperator? {
        switch current.kind {
        case .symbol(let text):
            return FHIRPathOperator(rawValue: text)
        case .identifier(let text) where text == "is" || text == "as":
            throw FHIRPathError("The operator '\(text)' is not supported.", at: current.position)
        case .identifier(let text):
            return FHIRPathOperator(rawValue: text)
        default:
            return nil
        }
    }

    private mutating func unary() throws(FHIRPathError) -> FHIRPathNode {
        guard isSymbol("+") || isSymbol("-") else { return try postfix() }
        let token = advance()
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw FHIRPathError("The expression is nested too deeply.", at: token.position) }
        let operand = try unary()
        return token.kind == .symbol("-") ? FHIRPathNode(kind: .negate(operand), position: token.position) : operand
    }

    private mutating func postfix() throws(FHIRPathError) -> FHIRPathNode {
        var node = try term()
        while true {
            if isSymbol(".") {
                _ = advance()
                let nameToken = current
                guard let name = Self.name(of: nameToken) else {
                    throw FHIRPathError("A name is expected after '.', not \(Self.describe(nameToken)).", at: nameToken.position)
                }
                _ = advance()
                if isSymbol("(") {
                    node = try call(name, at: nameToken.position, on: node)
                } else {
                    node = FHIRPathNode(kind: .child(node, name), position: nameToken.position)
                }
            } else if isSymbol("[") {
                let open = advance()
                let position = try expression()
                try close("]", opener: open)
                node = FHIRPathNode(kind: .index(node, position), position: open.position)
            } else {
                return node
            }
        }
    }

    // MARK: Terms

    private mutating func term() throws(FHIRPathError) -> FHIRPathNode {
        let token = current
        switch token.kind {
        case .number(let text):
            _ = advance()
            return try number(text, at: token.position)
        case .string(let text):
            _ = advance()
            return literal(.string(text), token)
        case .date(let text):
            _ = advance()
            return literal(.date(text), token)
        case .dateTime(let text):
            _ = advance()
            return literal(.dateTime(text), token)
        case .time(let text):
            _ = advance()
            return literal(.time(text), token)
        case .constant(let name):
            _ = advance()
            constants.insert(name)
            return FHIRPathNode(kind: .constant(name), position: token.position)
        case .special(let name):
            guard name == "this" else { throw FHIRPathError("'$\(name)' is not supported.", at: token.position) }
            _ = advance()
            return FHIRPathNode(kind: .this, position: token.position)
        case .identifier("true"), .identifier("false"):
            _ = advance()
            return literal(.boolean(token.kind == .identifier("true")), token)
        case .identifier(let name) where Self.operatorKeywords.contains(name):
            throw FHIRPathError("A value is expected here, not the operator '\(name)'.", at: token.position)
        case .identifier(let name), .delimitedIdentifier(let name):
            _ = advance()
            if isSymbol("(") { return try call(name, at: token.position, on: nil) }
            return FHIRPathNode(kind: .member(name), position: token.position)
        case .symbol("("):
            _ = advance()
            let inner = try expression()
            try close(")", opener: token)
            return inner
        case .symbol("{"):
            _ = advance()
            guard isSymbol("}") else {
                throw FHIRPathError("Only the empty collection '{}' can be written with braces.", at: token.position)
            }
            _ = advance()
            return FHIRPathNode(kind: .literal([]), position: token.position)
        case .end:
            throw FHIRPathError("The expression ends where a value is expected.", at: token.position)
        default:
            throw FHIRPathError("A value is expected here, not \(Self.describe(token)).", at: token.position)
        }
    }

    private func literal(_ value: FHIRPathValue, _ token: FHIRPathToken) -> FHIRPathNode {
        FHIRPathNode(kind: .literal([value]), position: token.position)
    }

    /// An integer, a decimal, or a quantity when a unit string follows.
    private mutating func number(_ text: String, at position: Int) throws(FHIRPathError) -> FHIRPathNode {
        let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
        // A calendar duration (`18 years`) is a quantity in that word, which date arithmetic reads.
        if case .identifier(let unit) = current.kind, Self.calendarUnits.contains(unit) {
            _ = advance()
            return FHIRPathNode(kind: .literal([.quantity(decimal, unit: unit)]), position: position)
        }
        if case .string(let unit) = current.kind {
            _ = advance()
            return FHIRPathNode(kind: .literal([.quantity(decimal, unit: unit)]), position: position)
        }
        if text.contains(".") { return FHIRPathNode(kind: .literal([.decimal(decimal)]), position: position) }
        guard let integer = Int(text) else { throw FHIRPathError("The number \(text) is too large for an integer.", at: position) }
        return FHIRPathNode(kind: .literal([.integer(integer)]), position: position)
    }

    private mutating func call(_ name: String, at position: Int, on base: FHIRPathNode?) throws(FHIRPathError) -> FHIRPathNode {
        guard let function = FHIRPathFunction(rawValue: name) else {
            throw FHIRPathError("The function '\(name)' is not supported.", at: position)
        }
        let open = advance()
        var arguments: [FHIRPathNode] = []
        if isSymbol(")") {
            _ = advance()
        } else {
            while true {
                arguments.append(try expression())
                if isSymbol(",") {
                    _ = advance()
                    continue
                }
                try close(")", opener: open, expecting: "',' or ')'")
                break
            }
        }
        guard function.arity.contains(arguments.count) else {
            throw FHIRPathError("The function '\(name)' takes \(Self.describe(function.arity)), not \(arguments.count).", at: position)
        }
        return FHIRPathNode(kind: .call(base, function, arguments), position: position)
    }

    // MARK: Faults

    /// Takes the closing `symbol`, or names what stands in its place.
    private mutating func close(_ symbol: String, opener: FHIRPathToken, expecting: String? = nil) throws(FHIRPathError) {
        if isSymbol(symbol) {
            _ = advance()
            return
        }
        if current.kind == .end {
            let what = symbol == "]" ? "bracket" : "parenthesis"
            throw FHIRPathError("The \(what) opened here is never closed.", at: opener.position)
        }
        throw unexpected(after: "an operand", expecting: expecting ?? "'\(symbol)'")
    }

    private func unexpected(after what: String, expecting: String? = nil) -> FHIRPathError {
        let token = current
        if case .identifier(let name) = token.kind {
            return FHIRPathError("'\(name)' is not a known operator.", at: token.position)
        }
        if token.kind == .symbol(")") && expecting == nil {
            return FHIRPathError("There is no '(' for this ')' to close.", at: token.position)
        }
        if let expecting {
            return FHIRPathError("Expected \(expecting) but found \(Self.describe(token)).", at: token.position)
        }
        return FHIRPathError("Unexpected \(Self.describe(token)) after \(what).", at: token.position)
    }

    private static func name(of token: FHIRPathToken) -> String? {
        switch token.kind {
        case .identifier(let name), .delimitedIdentifier(let name): return name
        default: return nil
        }
    }

    private static func describe(_ token: FHIRPathToken) -> String {
        token.kind == .end ? "the end of the expression" : "'\(token.text)'"
    }

    private static func describe(_ arity: ClosedRange<Int>) -> String {
        let plural = arity == 1...1 ? "argument" : "arguments"
        if arity.upperBound == 0 { return "no arguments" }
        if arity.count == 1 { return "\(arity.lowerBound) \(plural)" }
        return "\(arity.lowerBound) or \(arity.upperBound) \(plural)"
    }
}
