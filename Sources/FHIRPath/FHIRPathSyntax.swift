import Foundation
import JSON

/// A node of a parsed expression. `position` is where its name, operator or literal starts in the source.
struct FHIRPathNode: Sendable {
    indirect enum Kind: Sendable {
        /// A literal: one value, or none for `{}`.
        case literal([FHIRPathValue])
        /// `$this`: the current focus.
        case this
        /// `%name`.
        case constant(String)
        /// A name read on the current focus, at the start of a path.
        case member(String)
        /// `base.name`.
        case child(FHIRPathNode, String)
        /// A function call; the input is `base`, or the current focus when there is none.
        case call(FHIRPathNode?, FHIRPathFunction, [FHIRPathNode])
        /// `base[index]`.
        case index(FHIRPathNode, FHIRPathNode)
        /// Unary `-` (unary `+` leaves its operand as it is).
        case negate(FHIRPathNode)
        case binary(FHIRPathOperator, FHIRPathNode, FHIRPathNode)
    }

    let kind: Kind
    let position: Int
}

/// The binary operators of the supported subset, with FHIRPath precedence.
enum FHIRPathOperator: String, Sendable, CaseIterable {
    case multiply = "*", divide = "/", div, mod
    case add = "+", subtract = "-", concatenate = "&"
    case union = "|"
    case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
    case equal = "=", notEqual = "!=", equivalent = "~", notEquivalent = "!~"
    case `in`, contains
    case and
    case or, xor
    case implies

    /// Higher binds tighter; every level associates to the left.
    var precedence: Int {
        switch self {
        case .multiply, .divide, .div, .mod: return 10
        case .add, .subtract, .concatenate: return 9
        case .union: return 7
        case .less, .greater, .lessOrEqual, .greaterOrEqual: return 6
        case .equal, .notEqual, .equivalent, .notEquivalent: return 5
        case .in, .contains: return 4
        case .and: return 3
        case .or, .xor: return 2
        case .implies: return 1
        }
    }
}

/// The functions of the supported subset and how many arguments each takes.
enum FHIRPathFunction: String, Sendable, CaseIterable {
    case `where`, select, exists, empty, count, first, last, sum, iif, not, round, `extension`, all, distinct
    case toString, toInteger, toDecimal, abs, length
    case children, descendants, `repeat`, power, combine, lower, upper
    case today, now
    case floor, ceiling, truncate, sqrt
    /// This engine's addition, for REDCap's `datediff`: seconds from one date or date-time to another.
    case secondsUntil
    /// Structured Data Capture's additions.
    case answers, ordinal

    var arity: ClosedRange<Int> {
        switch self {
        case .where, .select, .extension, .all, .repeat, .power, .combine, .secondsUntil: return 1...1
        case .exists, .round: return 0...1
        case .iif: return 2...3
        case .empty, .count, .first, .last, .sum, .not, .distinct, .toString, .toInteger, .toDecimal, .abs, .length,
             .children, .descendants, .lower, .upper, .answers, .ordinal, .today, .now, .floor, .ceiling, .truncate, .sqrt: return 0...0
        }
    }
}
