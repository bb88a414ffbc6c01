import Foundation
import JSON
import SurveyCore

extension REDCapSurveyBuilder {
    /// A field's question keys: its format, whether it is required or identifying, what its
    /// action tags ask (hidden, read-only, a default, a calculation), and what is kept for export.
    mutating func question(_ field: Field) throws(REDCapImport.Failure) -> JSONObject {
        var (format, kind, warning) = try REDCapImport.format(field)
        if let warning { warn(field, field.type == "slider" ? .choices : .validation, warning) }
        for (column, key) in [(REDCapDictionary.Column.validationMinimum, "minimum"), (.validationMaximum, "maximum")] where field.cells[column] != nil {
            let bounds = ["minimum": ["minimum", "minimumDate", "daysBeforeCurrentDate"], "maximum": ["maximum", "maximumDate", "daysAfterCurrentDate"]][key]!
            if field.type == "text", !bounds.contains(where: { format[$0] != nil }) {
                warn(field, column, "\"\(field[column])\" is not a bound this field can take (write numbers with a point, dates as YYYY-MM-DD); it is not checked.")
            }
        }
        var question = JSONObject()
        if field[.required].lowercased() == "y" || field[.required] == "1" { question["optional"] = .bool(false) }
        if field[.identifier].lowercased() == "y" { question["identifying"] = .bool(true) }
        if field.type == "calc" {
            guard let calculation = field.cells[.choices] else {
                throw REDCapImport.Failure(row: field.row, column: .choices, "A calc field needs its calculation.")
            }
            question["calculatedExpression"] = .string(try value(calculation, field, column: .choices))
        }
        let tags = REDCapActionTags(field[.annotation])
        for tag in tags.tags {
            switch tag.name {
            case "HIDDEN", "HIDDEN-SURVEY":
                question["hidden"] = .bool(true)
            case "HIDDEN-FORM", "HIDDEN-APP", "HIDDEN-PDF", "READONLY-FORM", "READONLY-APP":
                break
            case "READONLY", "READONLY-SURVEY":
                question["readOnly"] = .bool(true)
            case "DEFAULT", "SETVALUE":
                if let initial = initial(tag.argument ?? "", kind: kind, format: format) {
                    question["initial"] = initial
                } else {
                    warn(field, .annotation, "@\(tag.name)=\"\(tag.argument ?? "")\" is not a value this field takes, or pipes another field; it is not carried over.")
                }
            case "NOW", "NOW-SERVER", "NOW-UTC", "TODAY", "TODAY-SERVER", "TODAY-UTC":
                if kind == .date || kind == .dateTime {
                    question["initialExpression"] = .string(tag.name.hasPrefix("NOW") && kind == .dateTime ? "now()" : "today()")
                } else {
                    warn(field, .annotation, "@\(tag.name) fills in a date; this field takes no date, so it is not carried over.")
                }
            case "CALCTEXT":
                question["calculatedExpression"] = .string(try value(tag.argument ?? "", field, column: .annotation))
                format = .object(["type": .string("text")])
            case "CHARLIMIT":
                if let limit = Int(tag.argument ?? ""), case .object(var object) = format, object["type"] == .string("text") {
                    object["maximumLength"] = .number(Double(limit))
                    format = .object(object)
                }
            case "PLACEHOLDER":
                question["placeholder"] = tag.argument.map(JSONValue.string)
            case "NONEOFTHEABOVE":
                format = Self.exclusive(tag.argument ?? "", in: format)
            default:
                warn(field, .annotation, "The action tag @\(tag.name) is not carried over; it is kept for the export.")
            }
        }
        question["answerFormat"] = format
        question["redcap"] = provenance(field, label: false)
        return question
    }

    /// What the row said that the survey does not show, for the export to write back.
    func provenance(_ field: Field, label: Bool) -> JSONValue? {
        var kept = JSONObject()
        let columns: [(REDCapDictionary.Column, String)] = [
            (.validation, "validation"), (.validationMinimum, "minimum"), (.validationMaximum, "maximum"),
            (.branchingLogic, "branchingLogic"), (.annotation, "annotation"), (.alignment, "alignment"),
            (.questionNumber, "questionNumber"), (.matrixRanking, "matrixRanking"),
        ]
        for (column, key) in columns { kept[key] = field.cells[column].map(JSONValue.string) }
        if field.type == "calc" || field.type == "slider" { kept["choices"] = field.cells[.choices].map(JSONValue.string) }
        return kept.isEmpty ? nil : .object(kept)
    }

    /// A calculation in FHIRPath.
    func value(_ source: String, _ field: Field, column: REDCapDictionary.Column) throws(REDCapImport.Failure) -> String {
        do {
            return try ExpressionTranslator(fields: known).value(try ExpressionParser.parse(source, .redcap)).code
        } catch {
            throw REDCapImport.Failure(row: field.row, column: column, "\(error.message) The calculation is: \(source)")
        }
    }

    /// `[age]` in a label as the survey's piped answer, shown as REDCap shows a blank one.
    func pipe(_ label: String) -> String {
        guard label.contains("[") else { return label }
        var result = ""
        var rest = Substring(label)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let name = String(rest[rest.index(after: open)..<close])
            result += rest[..<open]
            if asked.contains(name), let field = known[name], grid.map({ !field.selector.hasPrefix($0.name + ".") }) ?? true {
                result += "${\(field.selector)|______}"
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A default value in the shape the result records.
    private func initial(_ text: String, kind: ImportedField.Kind, format: JSONValue) -> JSONValue? {
        guard !text.contains("[") else { return nil }
        switch kind {
        case .boolean: return ExpressionTranslator.flag(text).map(JSONValue.bool)
        case .number: return Double(text).map(JSONValue.number)
        case .choice(let numeric), .choices(let numeric):
            let codes = text.split(separator: ",").map { String($0).trimmingSpaces }
            return .array(codes.map { numeric ? (Double($0).map(JSONValue.number) ?? .string($0)) : .string($0) })
        case .text, .date, .dateTime, .time: return .string(text)
        }
    }

    /// @NONEOFTHEABOVE=code: that choice excludes the others.
    private static func exclusive(_ code: String, in format: JSONValue) -> JSONValue {
        guard case .object(var object) = format, case .array(let choices)? = object["choices"] else { return format }
        object["choices"] = .array(choices.map { choice in
            guard case .object(var entry) = choice else { return choice }
            if entry["value"] == .string(code) || entry["value"] == Double(code).map(JSONValue.number) { entry["exclusive"] = .bool(true) }
            return .object(entry)
        })
        return .object(object)
    }
}
