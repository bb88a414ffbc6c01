import Foundation

/// A JSON document as data: what a survey file holds before it becomes a model.
///
/// Objects keep their keys in file order so that diagnostics and re-encoded files
/// read in the order the author wrote them.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for messages ("a string", "an array").
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object whose keys keep their order.
public struct JSONObject: Sendable, Hashable {
    public private(set) var entries: [(key: String, value: JSONValue)]

    public init(_ entries: [(key: String, value: JSONValue)] = []) {
        self.entries = entries
    }

    public var keys: [String] { entries.map(\.key) }
    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (key, value) in lhs.entries where rhs[key] != value { return false }
        return true
    }

    /// Key order does not count for equality, so the hash takes the keys in sorted order.
    public func hash(into hasher: inout Hasher) {
        for entry in entries.sorted(by: { $0.key < $1.key }) {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension JSONValue {
    /// Builds an object from key-value pairs, leaving out the nil values.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        var object = JSONObject()
        for (key, value) in pairs {
            if let value { object[key] = value }
        }
        return .object(object)
    }
}
