import Foundation
import JSON
import SurveyCore

extension REDCapExport {
    /// A question's cells: its field type, validation, choices, and what the importer kept.
    mutating func question(_ question: JSONValue, selector: String, label: JSONValue?, at path: JSONPath) -> [Column: String] {
        let format = question["answerFormat"] ?? .null
        let kept = question["redcap"]
        var cells: [Column: String] = [.fieldName: fields[selector]?.name ?? Self.fieldName(selector), .fieldLabel: plain(label)]
        cells[.fieldNote] = plain(question["detailText"])
        if question["optional"] == .bool(false) { cells[.required] = "y" }
        if question["identifying"] == .bool(true) { cells[.identifier] = "y" }
        let choices = (format["choices"]?.arrayValue ?? []).map { choice in
            "\(choice["value"].map(Self.code) ?? ""), \(plain(choice["text"]))"
        }.joined(separator: " | ")
        func bound(_ key: String) -> String { format[key].map(Self.code) ?? "" }
        switch format["type"]?.stringValue ?? "" {
        case "boolean":
            cells[.fieldType] = plain(format["yes"]) == "True" && plain(format["no"]) == "False" ? "truefalse" : "yesno"
        case "textChoice", "textScale", "imageChoice":
            cells[.fieldType] = Self.isMultiple(question) ? "checkbox" : "radio"
            cells[.choices] = choices
        case "valuePicker":
            cells[.fieldType] = "dropdown"
            cells[.choices] = choices
        case "scale":
            cells[.fieldType] = "radio"
            let step = format["step"]?.numberValue ?? 1
            cells[.choices] = stride(from: format["minimum"]?.numberValue ?? 0, through: format["maximum"]?.numberValue ?? 0, by: step)
                .map { "\(JSONWriter.number($0)), \(JSONWriter.number($0))" }.joined(separator: " | ")
        case "continuousScale":
            cells[.fieldType] = "slider"
            let labels = kept?["choices"]?.stringValue
            cells[.choices] = labels ?? [plain(format["minimumValueDescription"]), plain(format["maximumValueDescription"])]
                .joined(separator: " | ").trimmingCharacters(in: CharacterSet(charactersIn: " |"))
            cells[.validationMinimum] = bound("minimum") == "0" && kept?["minimum"] == nil ? "" : bound("minimum")
            cells[.validationMaximum] = bound("maximum") == "100" && kept?["maximum"] == nil ? "" : bound("maximum")
            cells[.validation] = kept?["validation"]?.stringValue ?? ""
        case "numeric":
            if question["calculatedExpression"] != nil { break }
            cells[.fieldType] = "text"
            let digits = format["maximumFractionDigits"]?.numberValue.map { Int($0) }
            cells[.validation] = format["style"]?.stringValue == "integer" ? "integer" : digits.map { "number_\($0)dp" } ?? "number"
            cells[.validationMinimum] = bound("minimum")
            cells[.validationMaximum] = bound("maximum")
        case "text":
            cells[.fieldType] = format["multipleLines"] == .bool(true) ? "notes" : "text"
            if let pattern = format["validationRegularExpression"]?.stringValue {
                cells[.validation] = REDCapValidation.patterns.first { $0.value.pattern == pattern }?.key ?? ""
                if cells[.validation] == "" { notes.append(Diagnostic(.warning, path / "answerFormat", "REDCap has no validation type for this pattern: the field is written without one.")) }
            }
        case "email":
            cells[.fieldType] = "text"
            cells[.validation] = "email"
        case "date":
            cells[.fieldType] = "text"
            cells[.validation] = format["style"]?.stringValue == "dateAndTime" ? "datetime_ymd" : "date_ymd"
            cells[.validationMinimum] = format["daysBeforeCurrentDate"] == .number(0) ? "today" : format["minimumDate"]?.stringValue ?? ""
            cells[.validationMaximum] = format["daysAfterCurrentDate"] == .number(0) ? "today" : format["maximumDate"]?.stringValue ?? ""
        case "timeOfDay":
            cells[.fieldType] = "text"
            cells[.validation] = "time"
        default:
            cells[.fieldType] = "text"
            notes.append(Diagnostic(.warning, path / "answerFormat", "REDCap has no \(format["type"]?.stringValue ?? "such") field: it is written as a text field."))
        }
        // A validation the importer read (date_mdy, a postal code…) is written back when it reads as this format.
        if let validation = kept?["validation"]?.stringValue, cells[.fieldType] == "text",
           REDCapValidation.format(validation, minimum: kept?["minimum"]?.stringValue ?? "", maximum: kept?["maximum"]?.stringValue ?? "").format == format {
            cells[.validation] = validation
            cells[.validationMinimum] = kept?["minimum"]?.stringValue ?? ""
            cells[.validationMaximum] = kept?["maximum"]?.stringValue ?? ""
        }
        if let calculation = question["calculatedExpression"]?.stringValue {
            calculated(calculation, question: question, kept: kept, into: &cells, at: path)
        }
        cells[.annotation] = annotation(question, kept: kept)
        keep(kept, into: &cells)
        return cells
    }

    private mutating func calculated(_ expression: String, question: JSONValue, kept: JSONValue?, into cells: inout [Column: String], at path: JSONPath) {
        // The importer's calculation, while the survey's expression is still what it was made into.
        if let source = kept?["choices"]?.stringValue, question["answerFormat"]?["type"]?.stringValue == "numeric" {
            cells[.fieldType] = "calc"
            cells[.choices] = source
            cells[.validation] = ""
            return
        }
        if question["answerFormat"]?["type"]?.stringValue == "text", kept?["annotation"]?.stringValue?.contains("@CALCTEXT") == true {
            return
        }
        cells[.fieldType] = "text"
        notes.append(Diagnostic(.warning, path / "calculatedExpression", "A calculation in FHIRPath has no REDCap form: the field is written as a read-only text field."))
    }

    /// The kept annotation, else action tags for what the question does.
    private func annotation(_ question: JSONValue, kept: JSONValue?) -> String {
        if let text = kept?["annotation"]?.stringValue { return text }
        var tags: [String] = []
        if question["hidden"] == .bool(true) { tags.append("@HIDDEN") }
        if question["readOnly"] == .bool(true) || (question["calculatedExpression"] != nil && question["answerFormat"]?["type"]?.stringValue != "numeric") {
            tags.append("@READONLY")
        }
        if let placeholder = question["placeholder"] { tags.append("@PLACEHOLDER='\(plain(placeholder))'") }
        if let initial = question["initial"] {
            let value = initial.arrayValue.map { $0.map(Self.code).joined(separator: ",") } ?? Self.code(initial)
            tags.append("@DEFAULT='\(value)'")
        }
        return tags.joined(separator: " ")
    }

    /// A value as the dictionary writes it.
    static func code(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return JSONWriter.number(number)
        case .bool(let flag): return flag ? "1" : "0"
        default: return ""
        }
    }
}
