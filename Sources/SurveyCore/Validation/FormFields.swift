import Foundation
import JSON

/// The fields of a submitted form: each name with its values in the order sent
/// (checkboxes send one name several times).
public struct FormFields: Sendable, Hashable {
    public private(set) var values: [String: [String]]

    public init(_ values: [String: [String]] = [:]) {
        self.values = values
    }

    /// Fields written as JSON, `{"name": "value", "boxes": ["a", "b"]}`, as scripts and fixtures hold them.
    public init(json: JSONValue?) {
        var pairs: [(String, String)] = []
        if case .object(let fields)? = json {
            for (name, value) in fields.entries {
                switch value {
                case .string(let text): pairs.append((name, text))
                case .array(let values): for case .string(let text) in values { pairs.append((name, text)) }
                case .number(let number): pairs.append((name, JSONWriter.number(number)))
                case .bool(let flag): pairs.append((name, flag ? "true" : "false"))
                default: break
                }
            }
        }
        self.init(pairs: pairs)
    }

    public init(pairs: [(String, String)]) {
        var values: [String: [String]] = [:]
        for (name, value) in pairs { values[name, default: []].append(value) }
        self.values = values
    }

    /// The fields with these set too, each replacing any value of its name.
    public func adding(_ pairs: [(String, String)]) -> FormFields {
        var copy = self
        for (name, value) in pairs { copy.values[name] = [value] }
        return copy
    }

    /// The first value of a field, as a browser sends it.
    public subscript(name: String) -> String? { values[name]?.first }

    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The first value with surrounding white space removed; nil when absent or blank.
    public func trimmed(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
