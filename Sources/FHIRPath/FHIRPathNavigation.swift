import Foundation
import JSON

/// How names find values in FHIR JSON, and how JSON primitives become typed values.
enum FHIRPathNavigation {
    /// The items that `name` gives on one item of the focus.
    ///
    /// On an element: the value of the key `name`; failing that, the FHIR choice element `name[x]`,
    /// i.e. a key `name` followed by a FHIR type name (`value` finds `valueCoding`). A key such as
    /// `answerOption` is no choice of `answer`, because `Option` is not a type. On a quantity:
    /// `value` and `unit`. On anything else: nothing.
    static func child(_ name: String, of item: FHIRPathValue) -> [FHIRPathValue] {
        switch item {
        case .node(.object(let object)):
            if let value = object[name] { return values(of: value, key: name) }
            var found: [FHIRPathValue] = []
            for (key, value) in object.entries where key.count > name.count && key.hasPrefix(name)
                && choiceTypes.contains(String(key.dropFirst(name.count))) {
                found += values(of: value, key: key)
            }
            return found
        case .quantity(let number, let unit):
            if name == "value" { return [.decimal(number)] }
            if name == "unit" || name == "code" { return [.string(unit)] }
            return []
        default:
            return []
        }
    }

    /// The items of a JSON value found under `key`: arrays flatten, null is nothing, objects are elements.
    static func values(of json: JSONValue, key: String?) -> [FHIRPathValue] {
        switch json {
        case .null: return []
        case .bool(let flag): return [.boolean(flag)]
        case .number(let number): return [self.number(number, kind: key.map(kind(ofKey:)) ?? .other)]
        case .string(let text): return [string(text, kind: key.map(kind(ofKey:)) ?? .other)]
        case .array(let elements): return elements.flatMap { values(of: $0, key: key) }
        case .object: return [.node(json)]
        }
    }

    /// A Quantity element (`{"value": 70, "unit": "kg"}`) as a quantity; the UCUM `code` wins over `unit`.
    static func quantity(of item: FHIRPathValue) -> (Decimal, String)? {
        switch item {
        case .quantity(let value, let unit): return (value, unit)
        case .node(.object(let object)):
            guard case .number(let number)? = object["value"],
                  object.keys.allSatisfy(quantityKeys.contains),
                  object["code"] != nil || object["unit"] != nil || object["system"] != nil else { return nil }
            var unit = "1"
            if case .string(let text)? = object["unit"] { unit = text }
            if case .string(let text)? = object["code"] { unit = text }
            return (decimal(number), unit)
        default:
            return nil
        }
    }

    /// A JSON number as an exact decimal, read from its shortest text so that 0.1 stays 0.1.
    static func decimal(_ number: Double) -> Decimal {
        Decimal(string: JSONWriter.number(number), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number)
    }

    // MARK: Typing primitives by key

    enum PrimitiveKind { case integer, decimal, date, dateTime, time, other }

    static func kind(ofKey key: String) -> PrimitiveKind {
        if key == "integer" || ["Integer", "Integer64", "UnsignedInt", "PositiveInt"].contains(where: key.hasSuffix) { return .integer }
        if key == "decimal" || key.hasSuffix("Decimal") { return .decimal }
        if key.hasSuffix("DateTime") || key.hasSuffix("Instant") { return .dateTime }
        if key.hasSuffix("Date") { return .date }
        if key.hasSuffix("Time") { return .time }
        return .other
    }

    private static func number(_ number: Double, kind: PrimitiveKind) -> FHIRPathValue {
        let whole = number.rounded() == number && Swift.abs(number) < 9_007_199_254_740_992
        if whole, kind != .decimal { return .integer(Int(number)) }
        return .decimal(decimal(number))
    }

    private static func string(_ text: String, kind: PrimitiveKind) -> FHIRPathValue {
        switch kind {
        case .date, .dateTime:
            guard let value = FHIRPathTemporal.parse(text), value.kind != .time else { return .string(text) }
            return value.kind == .date && kind == .date ? .date(text) : .dateTime(text)
        case .time:
            return FHIRPathTemporal.parse(text, time: true) == nil ? .string(text) : .time(text)
        case .integer:
            return Int(text).map(FHIRPathValue.integer) ?? .string(text)
        case .decimal:
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(FHIRPathValue.decimal) ?? .string(text)
        case .other:
            return .string(text)
        }
    }

    private static let quantityKeys: Set<String> = ["value", "unit", "code", "system", "comparator", "id", "extension"]

    /// FHIR data type names as they appear after the stem of a choice element (`value` + `Coding`).
    private static let choiceTypes: Set<String> = [
        "Base64Binary", "Boolean", "Canonical", "Code", "Date", "DateTime", "Decimal", "Id", "Instant", "Integer", "Integer64",
        "Markdown", "Oid", "PositiveInt", "String", "Time", "UnsignedInt", "Uri", "Url", "Uuid",
        "Address", "Age", "Annotation", "Attachment", "Availability", "CodeableConcept", "CodeableReference", "Coding",
        "ContactDetail", "ContactPoint", "Contributor", "Count", "DataRequirement", "Distance", "Dosage", "Duration",
        "Expression", "ExtendedContactDetail", "HumanName", "Identifier", "Meta", "Money", "ParameterDefinition", "Period",
        "Quantity", "Range", "Ratio", "RatioRange", "Reference", "RelatedArtifact", "SampledData", "Signature", "Timing",
        "TriggerDefinition", "UsageContext",
    ]
}
