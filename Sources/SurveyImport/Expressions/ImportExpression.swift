import Foundation
/// An expression of REDCap's logic or of XLSForm's (a part of XPath), read into one tree, so that
/// both become the survey's predicates and FHIRPath values by the same translation.
public indirect enum ImportExpression: Sendable, Hashable {
    /// A field's answer: REDCap's `[age]`, XLSForm's `${age}`.
    case field(String)
    /// A REDCap checkbox's one option: `[symptoms(2)]`, `'1'` when it is ticked, else `'0'`.
    case checkbox(String, String)
    /// XLSForm's `.`: the answer of the question the expression is on.
    case current
    /// A bare name in XLSForm: a column of the choices sheet, in a `choice_filter`.
    case column(String)
    /// A number as it was written.
    case number(String)
    case text(String)
    /// A function by its lowercased name, with its arguments.
    case call(String, [ImportExpression])
    case negate(ImportExpression)
    case not(ImportExpression)
    case binary(ImportOperator, ImportExpression, ImportExpression)

    /// Every field the expression reads, in the order met.
    /// The expression with each choices-sheet column replaced by one choice's value in it.
    public func substituting(_ columns: (String) -> String) -> ImportExpression {
        switch self {
        case .column(let name): return .text(columns(name))
        case .call(let name, let arguments): return .call(name, arguments.map { $0.substituting(columns) })
        case .negate(let inner): return .negate(inner.substituting(columns))
        case .not(let inner): return .not(inner.substituting(columns))
        case .binary(let operation, let left, let right): return .binary(operation, left.substituting(columns), right.substituting(columns))
        default: return self
        }
    }

    /// Every choices-sheet column a `choice_filter` names, in the order met.
    public var columns: [String] {
        switch self {
        case .column(let name): return [name]
        case .call(_, let arguments): return arguments.flatMap(\.columns)
        case .negate(let inner), .not(let inner): return inner.columns
        case .binary(_, let left, let right): return left.columns + right.columns
        default: return []
        }
    }

    public var fields: [String] {
        switch self {
        case .field(let name), .checkbox(let name, _): return [name]
        case .current, .column, .number, .text: return []
        case .call(_, let arguments): return arguments.flatMap(\.fields)
        case .negate(let inner), .not(let inner): return inner.fields
        case .binary(_, let left, let right): return left.fields + right.fields
        }
    }
}

public enum ImportOperator: String, Sendable, Hashable {
    case or, and
    case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case plus = "+", minus = "-", times = "*", divide = "/", modulo = "mod", power = "^"

    /// Lower binds looser.
    var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return 3
        case .plus, .minus: return 4
        case .times, .divide, .modulo: return 5
        case .power: return 6
        }
    }

    var isComparison: Bool { precedence == 3 }

    /// The comparison seen from the other side: `1 < [a]` is `[a] > 1`.
    var mirrored: ImportOperator {
        switch self {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return self
        }
    }
}

/// Why an expression could not be read or carried over: the sentence, and where it goes wrong.
public struct ImportExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
