import Foundation
import JSON

/// A number as a participant typed it, with the digits after its decimal separator.
public struct TypedNumber: Sendable, Hashable {
    public let value: Double
    /// Fraction digits, not counting trailing zeros ("2.50" has 1).
    public let fractionDigits: Int
}
