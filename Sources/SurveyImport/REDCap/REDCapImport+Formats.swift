import JSON

extension REDCapImport {
    /// A field's answer format and the kind of value it records; a warning where something is lost.
    static func format(_ field: REDCapDictionary.Field) throws(Failure) -> (format: JSONValue, kind: ImportedField.Kind, warning: String?) {
        switch field.type {
        case "text":
            return REDCapValidation.format(field[.validation].lowercased(), minimum: field[.validationMinimum], maximum: field[.validationMaximum])
        case "notes":
            return (.object(["type": .string("text"), "multipleLines": .bool(true)]), .text, nil)
        case "dropdown", "radio", "checkbox":
            let choices = try self.choices(field)
            let numeric = choices.allSatisfy { Int($0.code) != nil }
            let list = JSONValue.array(choices.map { choice in
                .object(["text": .string(choice.label), "value": numeric ? .number(Double(Int(choice.code)!)) : .string(choice.code)])
            })
            switch field.type {
            case "dropdown": return (.object(["type": .string("valuePicker"), "choices": list]), .choice(numeric: numeric), nil)
            case "radio": return (.object(["type": .string("textChoice"), "style": .string("singleChoice"), "choices": list]), .choice(numeric: numeric), nil)
            default: return (.object(["type": .string("textChoice"), "style": .string("multipleChoice"), "choices": list]), .choices(numeric: numeric), nil)
            }
        case "yesno":
            return (.object(["type": .string("boolean")]), .boolean, nil)
        case "truefalse":
            return (.object(["type": .string("boolean"), "yes": .string("True"), "no": .string("False")]), .boolean, nil)
        case "slider":
            let labels = field[.choices].split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            let minimum = Double(field[.validationMinimum]) ?? 0
            let maximum = Double(field[.validationMaximum]) ?? 100
            let left = labels.first.flatMap { $0.isEmpty ? nil : JSONValue.string($0) }
            let right = labels.count > 1 ? labels.last.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } : nil
            let middle = labels.count == 3 && !labels[1].isEmpty
            return (.object(["type": .string("continuousScale"), "minimum": .number(minimum), "maximum": .number(maximum),
                             "maximumFractionDigits": .number(0), "minimumValueDescription": left, "maximumValueDescription": right]),
                    .number, middle ? "the slider's middle label \"\(labels[1])\" is not shown (a scale here labels its ends)" : nil)
        case "calc":
            return (.object(["type": .string("numeric"), "style": .string("decimal")]), .number, nil)
        case "descriptive":
            return (.null, .text, nil)
        case "file":
            let what = field[.validation].lowercased() == "signature" ? "A signature field" : "A file upload field"
            throw Failure(row: field.row, column: .fieldType, "\(what) cannot be asked on a page without JavaScript here; remove the field or make it a text field.")
        case "sql":
            throw Failure(row: field.row, column: .fieldType, "An sql field runs a query on REDCap's own database, which a survey file cannot; make it a dropdown with its choices written out.")
        default:
            throw Failure(row: field.row, column: .fieldType, "\"\(field[.fieldType])\" is not a REDCap field type.")
        }
    }

    /// `1, Yes | 2, No`: each choice's code and label, in order.
    static func choices(_ field: REDCapDictionary.Field) throws(Failure) -> [(code: String, label: String)] {
        let text = field[.choices]
        guard !text.isEmpty else { throw Failure(row: field.row, column: .choices, "A \(field.type) field needs its choices, as \"1, Yes | 0, No\".") }
        var choices: [(code: String, label: String)] = []
        for part in text.split(separator: "|") {
            let piece = String(part).trimmingSpaces
            guard let comma = piece.firstIndex(of: ",") else {
                throw Failure(row: field.row, column: .choices, "The choice \"\(piece)\" has no code: write it as \"code, label\".")
            }
            let code = String(piece[..<comma]).trimmingSpaces
            let label = String(piece[piece.index(after: comma)...]).trimmingSpaces
            guard !code.isEmpty else { throw Failure(row: field.row, column: .choices, "The choice \"\(piece)\" has an empty code.") }
            choices.append((code, label.isEmpty ? code : label))
        }
        return choices
    }
}
