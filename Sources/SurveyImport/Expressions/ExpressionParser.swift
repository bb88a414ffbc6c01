import Foundation
/// Reads REDCap's logic (`[age] >= 18 and [consent] = '1'`) or XLSForm's expressions
/// (`${age} >= 18 and selected(${symptoms}, 'cough')`) into an `ImportExpression`.
///
/// Both are read by one precedence climber: `or`, then `and`, then comparisons, `+ -`,
/// `* / div mod`, `^`, and unary minus. What each dialect spells its own way (field references,
/// `<>` and `!=`, `div`, `not()`) is settled in the lexer.
public struct ExpressionParser {
    public enum Dialect: Sendable { case redcap, xlsform }

    enum Token: Equatable {
        case number(String), text(String), field(String), checkbox(String, String), current
        case name(String), op(ImportOperator), open, close, comma
    }

    private var tokens: [Token] = []
    private var position = 0
    private let dialect: Dialect

    public static func parse(_ source: String, _ dialect: Dialect) throws(ImportExpressionError) -> ImportExpression {
        var parser = ExpressionParser(dialect: dialect)
        parser.tokens = try ExpressionLexer(source: source, dialect: dialect).tokens()
        guard !parser.tokens.isEmpty else { throw ImportExpressionError("The expression is empty.") }
        let expression = try parser.expression(above: 0)
        if parser.position < parser.tokens.count {
            throw ImportExpressionError("The expression goes on after its end, at \(parser.describe(parser.tokens[parser.position])).")
        }
        return expression
    }

    private init(dialect: Dialect) { self.dialect = dialect }

    private mutating func expression(above level: Int) throws(ImportExpressionError) -> ImportExpression {
        var left = try unary()
        while position < tokens.count, case .op(let operation) = tokens[position], operation.precedence > level {
            position += 1
            // `^` groups to the right, the rest to the left.
            let right = try expression(above: operation == .power ? operation.precedence - 1 : operation.precedence)
            left = .binary(operation, left, right)
        }
        return left
    }

    private mutating func unary() throws(ImportExpressionError) -> ImportExpression {
        if position < tokens.count, tokens[position] == .op(.minus) {
            position += 1
            return .negate(try unary())
        }
        return try primary()
    }

    private mutating func primary() throws(ImportExpressionError) -> ImportExpression {
        guard position < tokens.count else { throw ImportExpressionError("The expression ends too soon.") }
        let token = tokens[position]
        position += 1
        switch token {
        case .number(let text): return .number(text)
        case .text(let text): return .text(text)
        case .field(let name): return .field(name)
        case .checkbox(let name, let code): return .checkbox(name, code)
        case .current: return .current
        case .open:
            let inner = try expression(above: 0)
            try expect(.close, "a closing parenthesis")
            return inner
        case .name(let name):
            guard position < tokens.count, tokens[position] == .open else {
                if name == "true" || name == "false" { return .call(name, []) }
                if dialect == .xlsform { return .column(name) }
                throw ImportExpressionError("\"\(name)\" is neither a function call nor a field.")
            }
            position += 1
            var arguments: [ImportExpression] = []
            if position < tokens.count, tokens[position] == .close {
                position += 1
            } else {
                while true {
                    arguments.append(try expression(above: 0))
                    if position < tokens.count, tokens[position] == .comma {
                        position += 1
                        continue
                    }
                    try expect(.close, "a comma or a closing parenthesis after an argument of \(name)()")
                    break
                }
            }
            if name == "not" {
                guard arguments.count == 1 else { throw ImportExpressionError("not() takes one argument.") }
                return .not(arguments[0])
            }
            return .call(name, arguments)
        default:
            throw ImportExpressionError("\(describe(token)) cannot start a value.")
        }
    }

    private mutating func expect(_ wanted: Token, _ words: String) throws(ImportExpressionError) {
        guard position < tokens.count, tokens[position] == wanted else {
            throw ImportExpressionError("Expected \(words)" + (position < tokens.count ? ", found \(describe(tokens[position]))." : " before the end."))
        }
        position += 1
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .number(let text): return "the number \(text)"
        case .text(let text): return "the text '\(text)'"
        case .field(let name), .checkbox(let name, _): return dialect == .redcap ? "[\(name)]" : "${\(name)}"
        case .current: return "\".\""
        case .name(let name): return "\"\(name)\""
        case .op(let operation): return "\"\(operation.rawValue)\""
        case .open: return "\"(\""
        case .close: return "\")\""
        case .comma: return "\",\""
        }
    }
}
