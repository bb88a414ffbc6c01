import Foundation
import JSON

/// Where a rule sends the participant: a step, or the end of the task (`$end`).
public enum Destination: Sendable, Hashable, CustomStringConvertible {
    case step(String)
    case end

    public static let endName = "$end"

    public init(_ name: String) {
        self = name == Self.endName ? .end : .step(name)
    }

    public var description: String {
        switch self {
        case .step(let identifier): return identifier
        case .end: return Self.endName
        }
    }
}
