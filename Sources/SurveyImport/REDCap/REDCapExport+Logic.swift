import Foundation
import JSON

extension REDCapExport {
    /// A predicate in REDCap's logic, or nil when it has none (a pattern, an `expression`, a
    /// time of day). REDCap's logic has no `not`, so a negation is carried down to the tests
    /// (`=` becomes `<>`, `and` becomes `or`).
    func logic(_ predicate: JSONValue, negated: Bool = false) -> String? {
        guard case .object(let object) = predicate else { return nil }
        if case .array(let parts)? = object["all"] ?? object["any"] {
            let isAll = (object["all"] != nil) != negated
            var written: [String] = []
            for part in parts {
                guard let text = logic(part, negated: negated) else { return nil }
                written.append(parts.count > 1 && (text.contains(" and ") || text.contains(" or ")) ? "(\(text))" : text)
            }
            return written.joined(separator: isAll ? " and " : " or ")
        }
        if let inner = object["not"] { return logic(inner, negated: !negated) }
        guard case .string(let selector)? = object["result"], object["instances"] == nil, let field = fields[selector] else { return nil }
        let reference = "[\(field.name)]"
        func quoted(_ value: JSONValue) -> String? {
            switch value {
            case .string(let text): return "'\(text.replacingOccurrences(of: "'", with: ""))'"
            case .number(let number): return "'\(JSONWriter.number(number))'"
            case .bool(let flag): return flag ? "'1'" : "'0'"
            default: return nil
            }
        }
        let equal = negated ? "<>" : "="
        if let value = object["compare"].flatMap(\.stringValue), let expected = object["value"] {
            let operation = negated ? Self.negatedComparison[value] ?? value : value
            guard let literal = quoted(expected) else { return nil }
            return "\(reference) \(operation == "!=" ? "<>" : operation) \(literal)"
        }
        if let choice = object["choice"] {
            guard let literal = quoted(choice) else { return nil }
            if field.isMultiple {
                return "[\(field.name)(\(literal.dropFirst().dropLast()))] = \(negated ? "'0'" : "'1'")"
            }
            return "\(reference) \(equal) \(literal)"
        }
        if case .array(let choices)? = object["choices"] {
            let tests = choices.map { JSONValue.object(["result": .string(selector), "choice": $0]) }
            return logic(.object(["all": .array(tests)]), negated: negated)
        }
        if let expected = object["equals"], let literal = quoted(expected) {
            return "\(reference) \(equal) \(literal)"
        }
        if case .bool(let answered)? = object["answered"] ?? object["isNil"].map({ if case .bool(let flag) = $0 { return .bool(!flag) } else { return $0 } }) {
            return "\(reference) \(answered != negated ? "<>" : "=") ''"
        }
        if object["minimum"] != nil || object["maximum"] != nil {
            var tests: [JSONValue] = []
            if let minimum = object["minimum"] { tests.append(.object(["result": .string(selector), "compare": .string(">="), "value": minimum])) }
            if let maximum = object["maximum"] { tests.append(.object(["result": .string(selector), "compare": .string("<="), "value": maximum])) }
            return logic(.object(["all": .array(tests)]), negated: negated)
        }
        return nil
    }

    static let negatedComparison = ["=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"]
}
