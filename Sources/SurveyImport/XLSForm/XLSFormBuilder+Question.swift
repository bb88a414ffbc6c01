import Foundation
import JSON
import SurveyCore

extension XLSFormBuilder {
    mutating func addQuestion(_ row: Row, type: XLSFormType) {
        let name = row["name"]
        let field = fields[name]
        var question = JSONObject()
        var format = answerFormat(row, type: type)
        let label = piped(languages.text(row.cells, "label"), row: row)
        let hint = piped(languages.text(row.cells, "hint"), row: row)
        if ["yes", "true", "true()"].contains(row["required"].lowercased()) { question["optional"] = .bool(false) }
        if row.cells["required_message"] != nil {
            warn(row, "required_message", "The survey's own words ask for a required answer, in the participant's language.")
        }
        if ["yes", "true", "true()"].contains(row["read_only"].lowercased()) { question["readOnly"] = .bool(true) }
        if type.base == "hidden" { question["hidden"] = .bool(true) }
        if type.base == "calculate" {
            question["hidden"] = .bool(true)
            do {
                let value = try ExpressionTranslator(fields: fields).value(try ExpressionParser.parse(row["calculation"], .xlsform))
                question["calculatedExpression"] = .string(value.code)
                if value.kind == .number { format = .object(["type": .string("numeric"), "style": .string("decimal")]) }
            } catch {
                self.error(row, "calculation", "\(error.message) The expression is: \(row["calculation"])")
            }
        } else if !row["calculation"].isEmpty {
            warn(row, "calculation", "A calculation on a question that is not a calculate row is not carried over.")
        }
        if let initial = row.cells["default"] { question["initial"] = initialValue(initial, field: field, row: row) }
        if let constraint = row.cells["constraint"], let field {
            format = constrained(format, constraint, field: field, row: row)
        }
        question["answerFormat"] = format
        if let open = container {
            var item = JSONObject([("identifier", .string(name))])
            item["text"] = label
            item["detailText"] = hint
            for entry in question.entries { item[entry.key] = entry.value }
            item["visibleIf"] = relevantCondition(extra: row.cells["relevant"], row: row, column: "relevant", within: open)
            appendItem(.object(item), to: open, row: row)
            return
        }
        var step = JSONObject([("type", .string("question")), ("identifier", .string(name))])
        step["title"] = pendingTitle
        pendingTitle = nil
        step["question"] = label
        step["detailText"] = hint
        for entry in question.entries { step[entry.key] = entry.value }
        addStep(step, row: row)
    }

    private mutating func answerFormat(_ row: Row, type: XLSFormType) -> JSONValue {
        let appearance = row["appearance"].lowercased()
        for word in appearance.split(separator: " ") where !["minimal", "multiline", "likert", "field-list"].contains(String(word)) {
            warn(row, "appearance", "The appearance \"\(word)\" is not used: the question is shown as plain HTML.")
        }
        switch type.base {
        case "integer": return .object(["type": .string("numeric"), "style": .string("integer")])
        case "decimal": return .object(["type": .string("numeric"), "style": .string("decimal")])
        case "text", "hidden", "calculate":
            return appearance.contains("multiline") ? .object(["type": .string("text"), "multipleLines": .bool(true)]) : .object(["type": .string("text")])
        case "phone_number":
            // pyxform's "phone number": text of digits.
            return .object(["type": .string("text"), "validationRegularExpression": .string("^[0-9]*$"),
                            "invalidMessage": .string("Enter digits only.")])
        case "date": return .object(["type": .string("date"), "style": .string("date")])
        case "datetime": return .object(["type": .string("date"), "style": .string("dateAndTime")])
        case "time": return .object(["type": .string("timeOfDay")])
        case "acknowledge":
            return .object(["type": .string("textChoice"), "style": .string("singleChoice"),
                            "choices": .array([.object(["text": .string("OK"), "value": .string("OK")])])])
        case "range": return rangeFormat(row)
        default:
            let rows = choiceList(type.list)
            if rows.isEmpty { error(row, "type", "The choice list \"\(type.list ?? "")\" is not on the choices sheet.") }
            let numeric = type.kind(choices: rows) == .choice(numeric: true) || type.kind(choices: rows) == .choices(numeric: true)
            let filter = choiceFilter(row)
            var choices: [JSONValue] = []
            for choice in rows {
                var object = JSONObject([("text", languages.text(choice.cells, "label") ?? .string(choice["name"])),
                                         ("value", numeric ? .number(Double(choice["name"]) ?? 0) : .string(choice["name"]))])
                if let filter {
                    do {
                        let filled = filter.substituting { choice.cells[$0] ?? "" }
                        object["visibleIf"] = try ExpressionTranslator(fields: fields).predicate(filled)
                    } catch {
                        self.error(row, "choice_filter", "\(error.message) The expression is: \(row["choice_filter"])")
                    }
                }
                choices.append(.object(object))
            }
            if type.orOther {
                choices.append(.object(["text": .string("Other"), "value": .string("other"), "other": .object([:])]))
            }
            if type.base == "select_one", appearance.contains("minimal"), !type.orOther {
                return .object(["type": .string("valuePicker"), "choices": .array(choices)])
            }
            // A scale cannot leave choices out, so a filtered list stays a list.
            if type.base == "select_one", appearance.contains("likert"), (2...8).contains(choices.count), filter == nil {
                return .object(["type": .string("textScale"), "choices": .array(choices)])
            }
            let style = type.base == "select_one" ? "singleChoice" : "multipleChoice"
            return .object(["type": .string("textChoice"), "style": .string(style), "choices": .array(choices)])
        }
    }

    /// The row's `choice_filter`, read once; nil when there is none, or when it names an answer of
    /// the same page, which is not saved when the page shows (warned).
    private mutating func choiceFilter(_ row: Row) -> ImportExpression? {
        guard let source = row.cells["choice_filter"] else { return nil }
        do {
            let expression = try ExpressionParser.parse(source, .xlsform)
            if let unknown = expression.columns.first(where: { !form.choiceColumns.contains($0) }) {
                self.error(row, "choice_filter", "\"\(unknown)\" is not a column of the choices sheet. The expression is: \(source)")
                return nil
            }
            if let page = container, let near = expression.fields.first(where: { fields[$0]?.selector.hasPrefix(page.name + ".") == true }) {
                warn(row, "choice_filter", "${\(near)} is on the same page, so its answer is not known when the page shows: every choice is shown.")
                return nil
            }
            return expression
        } catch {
            self.error(row, "choice_filter", "\(error.message) The expression is: \(source)")
            return nil
        }
    }

    /// `start=0 end=10 step=1`: a scale of whole steps where one fits, else a continuous scale.
    private func rangeFormat(_ row: Row) -> JSONValue {
        var parameters: [String: Double] = [:]
        for pair in row["parameters"].split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "," }) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let number = Double(parts[1]) { parameters[parts[0].lowercased()] = number }
        }
        let start = parameters["start"] ?? 1, end = parameters["end"] ?? 10, step = parameters["step"] ?? 1
        let steps = (end - start) / step
        if [start, end, step].allSatisfy({ $0 == $0.rounded() }), steps >= 1, steps <= 13, steps == steps.rounded() {
            return .object(["type": .string("scale"), "minimum": .number(start), "maximum": .number(end), "step": .number(step)])
        }
        let digits = step == step.rounded() ? 0 : min(4, String(step).split(separator: ".").last.map(\.count) ?? 0)
        return .object(["type": .string("continuousScale"), "minimum": .number(min(start, end)), "maximum": .number(max(start, end)),
                        "maximumFractionDigits": .number(Double(digits))])
    }

    /// A default in the shape the result records; an expression is not carried over.
    private mutating func initialValue(_ text: String, field: ImportedField?, row: Row) -> JSONValue? {
        if text.contains("${") || text.contains("(") {
            warn(row, "default", "A default worked out from an expression is not carried over.")
            return nil
        }
        switch field?.kind {
        case .number?: return Double(text).map(JSONValue.number)
        case .choice(let numeric)?, .choices(let numeric)?:
            return .array(text.split(separator: " ").map { numeric ? .number(Double($0) ?? 0) : .string(String($0)) })
        default: return .string(text)
        }
    }
}
