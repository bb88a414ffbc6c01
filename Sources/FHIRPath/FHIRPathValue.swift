import Foundation
import JSON

/// One item of a FHIRPath collection. An expression evaluates to an ordered collection of these.
public enum FHIRPathValue: Sendable, Equatable {
    case boolean(Bool)
    case integer(Int)
    case decimal(Decimal)
    case string(String)
    /// A date as written, e.g. "2020-01-02" or "2020-01".
    case date(String)
    /// A date and time as written, e.g. "2020-01-02T10:00:00Z"; may stop at any precision.
    case dateTime(String)
    /// A time of day as written, without the leading "T", e.g. "10:00".
    case time(String)
    /// A number with a UCUM unit, e.g. `5 'mg'`.
    case quantity(Decimal, unit: String)
    /// A FHIR element: a JSON object.
    case node(JSONValue)

    /// A short English name of the value's type, for messages ("an integer", "a string").
    public var typeDescription: String {
        switch self {
        case .boolean: return "a boolean"
        case .integer: return "an integer"
        case .decimal: return "a decimal"
        case .string: return "a string"
        case .date: return "a date"
        case .dateTime: return "a date-time"
        case .time: return "a time"
        case .quantity: return "a quantity"
        case .node: return "an element"
        }
    }
}

extension FHIRPathValue: CustomStringConvertible {
    /// The value written as a FHIRPath literal where there is one (`5`, `'text'`, `@2020-01-02`, `5 'mg'`).
    public var description: String {
        switch self {
        case .boolean(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .decimal(let number): return number.description
        case .string(let text): return "'\(text)'"
        case .date(let text), .dateTime(let text): return "@" + text
        case .time(let text): return "@T" + text
        case .quantity(let number, let unit): return "\(number) '\(unit)'"
        case .node(let json): return JSONWriter.string(json, pretty: false)
        }
    }
}

extension Array where Element == FHIRPathValue {
    /// The boolean when the collection is exactly one boolean; nil for anything else (also for empty).
    public var singleBoolean: Bool? {
        guard count == 1, case .boolean(let flag) = self[0] else { return nil }
        return flag
    }

    /// The collection's only item, or nil when it has none or several.
    public var singleValue: FHIRPathValue? { count == 1 ? self[0] : nil }
}
