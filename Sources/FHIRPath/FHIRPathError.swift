import JSON

/// A fault in a FHIRPath expression: refused while parsing, or met while evaluating.
public struct FHIRPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An English sentence naming the fault, e.g. "The function 'resolve' is not supported."
    public let message: String
    /// The 0-based character offset in the source where the fault starts.
    public let position: Int
    /// The limit of the evaluation's ``FHIRPathBudget`` that the expression went over; nil for every other fault.
    public let exceeded: FHIRPathBudget.Limit?

    /// A fault described by `message`, starting at the 0-based character offset `position`.
    public init(_ message: String, at position: Int) {
        self.message = message
        self.position = position
        exceeded = nil
    }

    /// The evaluation went over `limit` at the node that starts at `position`, and was stopped there.
    public init(exceeding limit: FHIRPathBudget.Limit, at position: Int) {
        message = "The expression needs more than its budget of \(limit), so its evaluation was stopped."
        self.position = position
        exceeded = limit
    }

    /// "at character N: message", counting characters from 1.
    public var description: String { "at character \(position + 1): \(message)" }
}
