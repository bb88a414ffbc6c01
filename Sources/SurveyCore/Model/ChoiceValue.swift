import Foundation
import JSON

/// The value a choice records: a string or a number, as the author wrote it.
public enum ChoiceValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Double)

    /// The value as a form field carries it: strings as they are, numbers in their shortest form.
    public var formValue: String {
        switch self {
        case .string(let text): return text
        case .number(let number): return JSONWriter.number(number)
        }
    }

    public var description: String { formValue }

    var json: JSONValue {
        switch self {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        }
    }

    init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        default: return nil
        }
    }
}
