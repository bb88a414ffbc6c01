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
