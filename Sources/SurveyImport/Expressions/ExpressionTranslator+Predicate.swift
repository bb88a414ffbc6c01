import Foundation
import JSON

extension ExpressionTranslator {
    /// A condition as the survey's predicate: a test of one field against a literal becomes the
    /// predicate the preview reads in words (`compare`, `choice`, `answered`, `equals`); `and`,
    /// `or` and `not` become `all`, `any` and `not`; anything else an `expression` in FHIRPath.
    public func predicate(_ expression: ImportExpression) throws(ImportExpressionError) -> JSONValue {
        switch expression {
        case .binary(.and, _, _), .binary(.or, _, _):
            let isAnd = { if case .binary(.and, _, _) = expression { return true } else { return false } }()
            let parts = try flattened(expression, isAnd ? .and : .or).map { (part) throws(ImportExpressionError) in try predicate(part) }
            return .object([isAnd ? "all" : "any": .array(parts)])
        case .not(let inner):
            return .object(["not": try predicate(inner)])
        case .call("selected", let arguments) where arguments.count == 2:
            if case .field(let name) = arguments[0], let value = literal(arguments[1]) {
                let field = try self.field(name)
                return .object(["result": .string(field.selector), "choice": typed(value, for: field)])
            }
        case .call("regex", let arguments) where arguments.count == 2:
            if case .field(let name) = arguments[0], case .text(let pattern) = arguments[1] {
                // XPath's regex() searches; the survey's `matches` must match the whole answer.
                return .object(["result": .string(try self.field(name).selector), "matches": .string("(?s).*(?:\(pattern)).*")])
            }
        case .binary(let operation, let left, let right) where operation.isComparison:
            if let test = try fieldTest(operation, left, right) { return test }
            if let test = try fieldTest(operation.mirrored, right, left) { return test }
        default:
            break
        }
        return .object(["expression": .string(try condition(expression))])
    }

    private func flattened(_ expression: ImportExpression, _ operation: ImportOperator) -> [ImportExpression] {
        if case .binary(let found, let left, let right) = expression, found == operation {
            return flattened(left, operation) + flattened(right, operation)
        }
        return [expression]
    }

    /// `field op literal` as a structured test, or nil when it is not one.
    private func fieldTest(_ operation: ImportOperator, _ left: ImportExpression,
                           _ right: ImportExpression) throws(ImportExpressionError) -> JSONValue? {
        guard let value = literal(right) else { return nil }
        switch left {
        case .checkbox(let name, let code):
            let field = try self.field(name)
            guard operation == .equal || operation == .notEqual, value == "1" || value == "0" else { return nil }
            let ticked: JSONValue = .object(["result": .string(field.selector), "choice": typed(code, for: field)])
            return (operation == .equal) == (value == "1") ? ticked : .object(["not": ticked])
        case .field(let name):
            let field = try self.field(name)
            let selector = JSONValue.string(field.selector)
            if value.isEmpty {
                guard operation == .equal || operation == .notEqual else { return nil }
                return .object(["result": selector, "answered": .bool(operation == .notEqual)])
            }
            switch field.kind {
            case .boolean:
                guard operation == .equal || operation == .notEqual, let flag = Self.flag(value) else { return nil }
                let test: JSONValue = .object(["result": selector, "equals": .bool(flag)])
                return operation == .equal ? test : .object(["not": test])
            case .choices:
                guard operation == .equal || operation == .notEqual else { return nil }
                let test: JSONValue = .object(["result": selector, "choice": typed(value, for: field)])
                return operation == .equal ? test : .object(["not": test])
            case .choice, .number, .text, .date, .dateTime, .time:
                if field.isNumeric, Double(value) == nil { return nil }
                return .object(["result": selector, "compare": .string(operation.fhirSpelling), "value": typed(value, for: field)])
            }
        default:
            return nil
        }
    }

    /// A literal's text: a number or a quoted text.
    func literal(_ expression: ImportExpression) -> String? {
        switch expression {
        case .number(let text), .text(let text): return text
        case .negate(.number(let text)): return "-" + text
        default: return nil
        }
    }

    /// A literal as the field's values are written: a number for numbers and whole-number choices.
    func typed(_ value: String, for field: ImportedField) -> JSONValue {
        if field.isNumeric, let number = Double(value) { return .number(number) }
        return .string(value)
    }

    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: return nil
        }
    }
}

extension ImportOperator {
    /// The spelling of a comparison in the survey's `compare` and in FHIRPath.
    var fhirSpelling: String { self == .notEqual ? "!=" : rawValue }
}
