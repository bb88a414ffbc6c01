import Foundation
extension ExpressionTranslator {
    /// The functions of REDCap and XLSForm that have a FHIRPath equivalent here; any other is
    /// refused by name.
    func call(_ name: String, _ arguments: [ImportExpression]) throws(ImportExpressionError) -> (code: String, kind: ImportedField.Kind?) {
        func codes() throws(ImportExpressionError) -> [String] {
            var codes: [String] = []
            for argument in arguments { codes.append(try value(argument).code) }
            return codes
        }
        func want(_ counts: ClosedRange<Int>) throws(ImportExpressionError) {
            guard counts.contains(arguments.count) else {
                throw ImportExpressionError("\(name)() takes \(counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)") argument\(counts.upperBound == 1 ? "" : "s"), not \(arguments.count).")
            }
        }
        switch name {
        case "true", "false":
            try want(0...0)
            return (name, .boolean)
        case "if":
            try want(3...3)
            let parts = try codes()
            return ("iif(\(parts[0]), \(parts[1]), \(parts[2]))", try value(arguments[1]).kind)
        case "sum", "mean":
            try want(1...100)
            let parts = try codes()
            let total = parts.map { "iif((\($0)).exists(), \($0), 0)" }.joined(separator: " + ")
            let any = parts.map { "(\($0)).exists()" }.joined(separator: " or ")
            let given = parts.map { "iif((\($0)).exists(), 1, 0)" }.joined(separator: " + ")
            let result = name == "sum" ? "(\(total))" : "(\(total)) / (\(given))"
            return ("iif(\(any), \(result), {})", .number)
        case "min", "max":
            // Blanks are passed over, as REDCap's are; each argument more triples the expression, so four at most.
            try want(1...4)
            let parts = try codes()
            let better = name == "min" ? "<" : ">"
            var code = parts[0]
            for part in parts.dropFirst() {
                code = "iif((\(part)).empty(), \(code), iif((\(code)).empty() or (\(part)) \(better) (\(code)), \(part), \(code)))"
            }
            return (code, .number)
        case "rounddown", "roundup":
            try want(1...2)
            let inner = try value(arguments[0]).code
            let function = name == "rounddown" ? "floor" : "ceiling"
            guard arguments.count == 2 else { return ("(\(inner)).\(function)()", .number) }
            guard let digits = literal(arguments[1]).flatMap(Int.init), (0...10).contains(digits) else {
                throw ImportExpressionError("\(name)()'s decimal places must be a whole number from 0 to 10.")
            }
            let scale = "1" + String(repeating: "0", count: digits)
            return (digits == 0 ? "(\(inner)).\(function)()" : "((\(inner)) * \(scale)).\(function)() / \(scale)", .number)
        case "datediff":
            return try dateDifference(arguments)
        case "round", "abs", "sqrt", "int", "number", "string", "string-length", "count-selected", "isblankormissingcode":
            return try single(name, arguments)
        case "coalesce":
            try want(2...2)
            let parts = try codes()
            return ("iif((\(parts[0])).exists(), \(parts[0]), \(parts[1]))", try value(arguments[0]).kind)
        case "concat":
            return (try codes().map { "(\($0))" }.joined(separator: " & "), .text)
        case "selected":
            try want(2...2)
            guard case .field(let fieldName) = arguments[0], let choice = literal(arguments[1]) else {
                throw ImportExpressionError("selected() takes a field and a choice's value.")
            }
            let field = try field(fieldName)
            let value = field.isNumeric ? choice : FHIRPathText.quoted(choice)
            return ("(\(field.fhirPath)) contains \(value)", .boolean)
        case "today", "now":
            try want(0...0)
            return ("\(name)()", name == "today" ? .date : .dateTime)
        default:
            throw ImportExpressionError("The function \(name)() cannot be carried over: it has no equivalent in the survey's expressions.")
        }
    }

    /// REDCap's `datediff(date1, date2, unit[, format][, signed])`: the time from the first to the
    /// second in years (365.2425 days), months (30.436875 days), days, hours, minutes or seconds,
    /// without its sign unless the last argument is true.
    private func dateDifference(_ arguments: [ImportExpression]) throws(ImportExpressionError) -> (code: String, kind: ImportedField.Kind?) {
        guard (3...5).contains(arguments.count), let unit = literal(arguments[2]) else {
            throw ImportExpressionError("datediff() takes two dates, a unit ('y', 'M', 'd', 'h', 'm' or 's') and whether to keep the sign.")
        }
        let seconds: [String: String] = ["y": "31556952", "M": "2629746", "d": "86400", "h": "3600", "m": "60", "s": "1"]
        guard let per = seconds[unit] else { throw ImportExpressionError("datediff()'s unit '\(unit)' is none of 'y', 'M', 'd', 'h', 'm' and 's'.") }
        func date(_ argument: ImportExpression) throws(ImportExpressionError) -> String {
            switch argument {
            case .text("today"): return "today()"
            case .text("now"): return "now()"
            case .text(let day):
                guard day.count >= 10, day.prefix(10).allSatisfy({ $0.isNumber || $0 == "-" }), day.dropFirst(4).first == "-" else {
                    throw ImportExpressionError("datediff()'s date '\(day)' is not written as YYYY-MM-DD.")
                }
                return ExpressionTranslator.literal(day, as: .dateTime) ?? FHIRPathText.quoted(day)
            default: return try value(argument).code
            }
        }
        let last = arguments[arguments.count - 1]
        let signed = arguments.count > 3 && (last == .call("true", []) || literal(last).flatMap(Self.flag) == true)
        let difference = "(\(try date(arguments[0]))).secondsUntil(\(try date(arguments[1]))) / \(per)"
        return (signed ? "(\(difference))" : "(\(difference)).abs()", .number)
    }

    private func single(_ name: String, _ arguments: [ImportExpression]) throws(ImportExpressionError) -> (code: String, kind: ImportedField.Kind?) {
        if name == "round" {
            guard (1...2).contains(arguments.count) else { throw ImportExpressionError("round() takes 1 or 2 arguments, not \(arguments.count).") }
            let digits = arguments.count == 2 ? try value(arguments[1]).code : "0"
            return ("(\(try value(arguments[0]).code)).round(\(digits))", .number)
        }
        guard arguments.count == 1 else { throw ImportExpressionError("\(name)() takes 1 argument, not \(arguments.count).") }
        let inner = try value(arguments[0]).code
        switch name {
        case "abs": return ("(\(inner)).abs()", .number)
        case "sqrt": return ("(\(inner)).power(0.5)", .number)
        // XPath's int() drops the fraction: x less its remainder by 1.
        case "int": return ("((\(inner)) - ((\(inner)) mod 1))", .number)
        case "number": return ("(\(inner)).toDecimal()", .number)
        case "string": return ("(\(inner)).toString()", .text)
        case "string-length": return ("iif((\(inner)).exists(), (\(inner)).toString().length(), 0)", .number)
        case "count-selected": return ("(\(inner)).count()", .number)
        default: return ("(\(inner)).empty()", .boolean)
        }
    }
}
