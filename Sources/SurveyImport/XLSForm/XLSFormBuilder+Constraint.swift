import Foundation
import JSON

extension XLSFormBuilder {
    /// A constraint as the format's own checks: bounds on `.` for numbers (`. >= 0 and . <= 120`)
    /// and dates (`. <= today()`), `string-length(.)` for text lengths, `regex(., '…')` for a
    /// pattern with `constraint_message` as its message. What else a constraint says is warned of.
    mutating func constrained(_ format: JSONValue, _ constraint: String, field: ImportedField, row: Row) -> JSONValue {
        guard case .object(var object) = format else { return format }
        let expression: ImportExpression
        do {
            expression = try ExpressionParser.parse(constraint, .xlsform)
        } catch {
            self.error(row, "constraint", "\(error.message) The expression is: \(constraint)")
            return format
        }
        var leftOver: [ImportExpression] = []
        for part in conjuncts(expression) where !apply(part, to: &object, row: row) { leftOver.append(part) }
        if !leftOver.isEmpty {
            warn(row, "constraint", "Only bounds, lengths and regex() on \".\" are checked here; the rest of \"\(constraint)\" is not.")
        }
        return .object(object)
    }

    private func conjuncts(_ expression: ImportExpression) -> [ImportExpression] {
        if case .binary(.and, let left, let right) = expression { return conjuncts(left) + conjuncts(right) }
        return [expression]
    }

    /// Applies one test on `.`; false when it is not one the format can hold.
    private func apply(_ part: ImportExpression, to object: inout JSONObject, row: Row) -> Bool {
        let type = object["type"]
        switch part {
        case .call("regex", let arguments) where arguments.count == 2 && type == .string("text"):
            guard arguments[0] == .current, case .text(let pattern) = arguments[1] else { return false }
            object["validationRegularExpression"] = .string(pattern)
            object["invalidMessage"] = languages.text(row.cells, "constraint_message") ?? .string("Check the form of this answer.")
            return true
        case .binary(let operation, let left, let right) where operation.isComparison:
            var (subject, operation, bound) = (left, operation, right)
            if right == .current || right == .call("string-length", [.current]) { (subject, operation, bound) = (right, operation.mirrored, left) }
            if subject == .call("string-length", [.current]), type == .string("text"), case .number(let text) = bound, let length = Int(text) {
                switch operation {
                case .lessOrEqual: object["maximumLength"] = .number(Double(length))
                case .less: object["maximumLength"] = .number(Double(length - 1))
                case .greaterOrEqual: object["minimumLength"] = .number(Double(length))
                case .greater: object["minimumLength"] = .number(Double(length + 1))
                default: return false
                }
                return true
            }
            guard subject == .current else { return false }
            if type == .string("numeric"), let number = numberLiteral(bound) {
                let whole = object["style"] == .string("integer")
                switch operation {
                case .greaterOrEqual: object["minimum"] = .number(number)
                case .greater where whole: object["minimum"] = .number(number + 1)
                case .lessOrEqual: object["maximum"] = .number(number)
                case .less where whole: object["maximum"] = .number(number - 1)
                default: return false
                }
                return true
            }
            if type == .string("date"), bound == .call("today", []) {
                switch operation {
                case .lessOrEqual: object["daysAfterCurrentDate"] = .number(0)
                case .greaterOrEqual: object["daysBeforeCurrentDate"] = .number(0)
                default: return false
                }
                return true
            }
            return false
        default:
            return false
        }
    }

    private func numberLiteral(_ expression: ImportExpression) -> Double? {
        switch expression {
        case .number(let text): return Double(text)
        case .negate(.number(let text)): return Double(text).map { -$0 }
        default: return nil
        }
    }
}
