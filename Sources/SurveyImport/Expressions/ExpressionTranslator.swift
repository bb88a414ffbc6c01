import Foundation
/// Carries an imported expression into the survey: conditions as predicates
/// (`ExpressionTranslator+Predicate`), values as FHIRPath over the run's QuestionnaireResponse.
///
/// A field's answer is `%resource.item.where(linkId = 'age').answer.value`; an empty answer is
/// FHIRPath's empty collection, so arithmetic on it is empty, as REDCap leaves a calculation
/// blank, while `sum()` passes blanks over, as REDCap's does.
public struct ExpressionTranslator: Sendable {
    let fields: [String: ImportedField]
    /// The field XLSForm's `.` stands for.
    let current: ImportedField?

    public init(fields: [String: ImportedField], current: ImportedField? = nil) {
        self.fields = fields
        self.current = current
    }

    func field(_ name: String) throws(ImportExpressionError) -> ImportedField {
        guard let field = fields[name] else {
            throw ImportExpressionError("\"\(name)\" is not a field of this instrument (another instrument's field cannot be known to a survey of one).")
        }
        return field
    }

    /// A condition in FHIRPath, true or not.
    public func condition(_ expression: ImportExpression) throws(ImportExpressionError) -> String {
        try value(expression).code
    }

    /// A value in FHIRPath.
    public func value(_ expression: ImportExpression) throws(ImportExpressionError) -> (code: String, kind: ImportedField.Kind?) {
        switch expression {
        case .field(let name):
            let field = try self.field(name)
            return (field.fhirPath, field.kind)
        case .current:
            guard let current else { throw ImportExpressionError("\".\" stands for an answer only in a constraint.") }
            return (current.fhirPath, current.kind)
        case .checkbox(let name, let code):
            let field = try self.field(name)
            let value = field.isNumeric ? code : FHIRPathText.quoted(code)
            return ("iif((\(field.fhirPath)) contains \(value), 1, 0)", .number)
        case .column(let name):
            throw ImportExpressionError("\"\(name)\" is neither a function call nor a field: write a field as ${\(name)}.")
        case .number(let text):
            return (text.hasPrefix(".") ? "0" + text : text, .number)
        case .text(let text):
            return (FHIRPathText.quoted(text), .text)
        case .negate(let inner):
            return ("-(\(try value(inner).code))", .number)
        case .not(let inner):
            return ("(\(try value(inner).code)).not()", .boolean)
        case .binary(let operation, let left, let right):
            return try binary(operation, left, right)
        case .call(let name, let arguments):
            return try call(name, arguments)
        }
    }

    private func binary(_ operation: ImportOperator, _ left: ImportExpression,
                        _ right: ImportExpression) throws(ImportExpressionError) -> (code: String, kind: ImportedField.Kind?) {
        var (leftCode, leftKind) = try value(left)
        var (rightCode, rightKind) = try value(right)
        switch operation {
        case .and, .or:
            return ("(\(leftCode)) \(operation.rawValue) (\(rightCode))", .boolean)
        case .power:
            return ("(\(leftCode)).power(\(rightCode))", .number)
        case .plus, .minus, .times, .divide, .modulo:
            leftCode = arithmetic(leftCode, leftKind)
            rightCode = arithmetic(rightCode, rightKind)
            return ("(\(leftCode)) \(operation.rawValue) (\(rightCode))", .number)
        default:
            // A literal compared with a field is written in the field's own kind.
            if let kind = leftKind, let literal = literal(right) { rightCode = Self.literal(literal, as: kind) ?? rightCode; rightKind = kind }
            if let kind = rightKind, let literal = literal(left) { leftCode = Self.literal(literal, as: kind) ?? leftCode; leftKind = kind }
            return ("(\(leftCode)) \(operation.fhirSpelling) (\(rightCode))", .boolean)
        }
    }

    /// A boolean answer counts 1 or 0 in arithmetic, as REDCap's yes/no does.
    private func arithmetic(_ code: String, _ kind: ImportedField.Kind?) -> String {
        kind == .boolean ? "iif(\(code), 1, 0)" : code
    }

    /// A literal written for a comparison with a value of this kind.
    static func literal(_ text: String, as kind: ImportedField.Kind) -> String? {
        switch kind {
        case .boolean:
            return flag(text).map { $0 ? "true" : "false" }
        case .number, .choice(numeric: true), .choices(numeric: true):
            return Double(text) == nil ? nil : text
        case .date, .dateTime:
            return text.count >= 4 && text.allSatisfy({ $0.isNumber || "-:T".contains($0) }) ? "@" + text : nil
        case .time:
            return text.count >= 5 ? "@T" + text : nil
        case .text, .choice(numeric: false), .choices(numeric: false):
            return FHIRPathText.quoted(text)
        }
    }
}
