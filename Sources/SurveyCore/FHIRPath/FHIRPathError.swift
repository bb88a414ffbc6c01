/// A fault in a FHIRPath expression: refused while parsing, or met while evaluating.
public struct FHIRPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An English sentence naming the fault, e.g. "The function 'resolve' is not supported."
    public let message: String
    /// The 0-based character offset in the source where the fault starts.
    public let position: Int

    /// A fault described by `message`, starting at the 0-based character offset `position`.
    public init(_ message: String, at position: Int) {
        self.message = message
        self.position = position
    }

    /// "at character N: message", counting characters from 1.
    public var description: String { "at character \(position + 1): \(message)" }
}
