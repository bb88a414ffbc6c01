import Foundation

/// A JSON syntax error with the line and column where it was found.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}
