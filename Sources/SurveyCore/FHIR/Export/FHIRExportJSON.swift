import Foundation
import JSON

// Reading the survey and result JSON, and writing FHIR JSON, for the FHIR exports. The
// accessors carry an `fx` prefix so that they stay apart from other readers of `JSONValue`.

extension JSONValue {
    /// The string, when this is one.
    var fxString: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The string, when this is one with at least one character (FHIR forbids empty strings).
    var fxText: String? {
        guard let text = fxString, !text.isEmpty else { return nil }
        return text
    }

    var fxNumber: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number, when it is a whole number that fits FHIR's 32-bit integer.
    var fxInteger: Int? {
        guard let number = fxNumber, number == number.rounded(), abs(number) <= 2_147_483_647 else { return nil }
        return Int(number)
    }

    var fxBool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var fxArray: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var fxObject: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The member of an object; nil for a missing key, a `null` member, or a value that is not an object.
    subscript(fx key: String) -> JSONValue? {
        guard case .object(let object) = self, let value = object[key], value != .null else { return nil }
        return value
    }

    /// The value as written in a linkId or a code: strings as they are, numbers without a needless fraction.
    var fxCodeText: String? {
        switch self {
        case .string(let text): return text.isEmpty ? nil : text
        case .number(let number): return JSONWriter.number(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }
}

/// Builders for the FHIR datatypes the exports write.
enum FHIRJSON {
    /// An object from pairs, leaving out nil values, empty strings, empty arrays and empty objects,
    /// none of which FHIR JSON allows.
    static func object(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        var object = JSONObject()
        for (key, value) in pairs {
            if let value, isPresent(value) { object[key] = value }
        }
        return .object(object)
    }

    /// Sets a key on an object unless the value is absent or empty.
    static func set(_ key: String, _ value: JSONValue?, in object: inout JSONObject) {
        guard let value, isPresent(value) else { return }
        object[key] = value
    }

    static func isPresent(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object(let object): return !object.isEmpty
        default: return true
        }
    }

    static func string(_ text: String?) -> JSONValue? {
        guard let text, !text.isEmpty else { return nil }
        return .string(text)
    }

    static func integer(_ number: Int) -> JSONValue { .number(Double(number)) }

    /// An extension with one value: `{"url": url, "value<Type>": value}`.
    static func extensionValue(_ url: String, _ type: String, _ value: JSONValue) -> JSONValue {
        .object(JSONObject([("url", .string(url)), ("value" + type, value)]))
    }

    /// An extension holding other extensions.
    static func extensionGroup(_ url: String, _ children: [JSONValue]) -> JSONValue {
        .object(JSONObject([("url", .string(url)), ("extension", .array(children))]))
    }

    /// A FHIRPath Expression datatype, optionally named (for `variable`).
    static func expression(_ source: String, name: String? = nil) -> JSONValue {
        object(["name": string(name), "language": .string(FHIRExtensionURL.fhirPathLanguage), "expression": .string(source)])
    }

    /// A Coding; a part left empty is left out.
    static func coding(system: String?, code: String?, display: String?) -> JSONValue {
        object(["system": string(system), "code": string(code), "display": string(display)])
    }

    /// The questionnaire-itemControl extension with one code.
    static func itemControl(_ code: String) -> JSONValue {
        extensionValue(FHIRExtensionURL.itemControl, "CodeableConcept",
                       .object(["coding": .array([coding(system: FHIRExportURL.itemControlSystem, code: code, display: nil)])]))
    }
}
