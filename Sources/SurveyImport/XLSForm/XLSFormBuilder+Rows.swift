import Foundation
import JSON
import SurveyCore

extension XLSFormBuilder {
    mutating func build() {
        for row in form.survey { add(row) }
        if let open = groups.last { error(open.row, "type", "The group \"\(open.name)\" is never ended.") }
        if steps.isEmpty, !diagnostics.contains(where: \.isError) {
            diagnostics.append(Diagnostic(.error, .root, "The form asks nothing a participant could answer."))
        }
    }

    private mutating func add(_ row: Row) {
        let type = XLSFormType(row["type"])
        switch type.base {
        case "begin_group", "begin_repeat":
            beginGroup(row, isRepeat: type.base == "begin_repeat")
        case "end_group", "end_repeat":
            if groups.popLast() == nil { error(row, "type", "\"\(row["type"])\" ends no group.") }
            if container == nil { pendingTitle = nil }
        case "":
            if !row["name"].isEmpty || !row["label"].isEmpty { error(row, "type", "The row has no type.") }
        case _ where Self.metadata.contains(type.base):
            warn(row, "type", "\(type.base) is a value an ODK device records about itself; a run here records its own start and end, and the row is not asked.")
        case _ where Self.unsupported.contains(type.base):
            let article = "aeiou".contains(type.base.prefix(1)) ? "An" : "A"
            error(row, "type", "\(article) \(type.base) question cannot be asked on a page without JavaScript here; remove it or ask it as text.")
        case "note":
            addNote(row)
        default:
            guard type.kind(choices: choiceList(type.list)) != nil else {
                return error(row, "type", "\"\(row["type"])\" is not an XLSForm question type.")
            }
            guard !row["name"].isEmpty else { return error(row, "name", "The question has no name.") }
            if row["calculation"].contains("pulldata(") {
                return error(row, "calculation", "pulldata() reads a CSV file attached to the form on the device, which a survey file cannot.")
            }
            addQuestion(row, type: type)
        }
    }

    private mutating func beginGroup(_ row: Row, isRepeat: Bool) {
        let name = row["name"]
        let label = languages.text(row.cells, "label")
        var group = Group(name: name, label: label, relevant: row.cells["relevant"], row: row)
        if let open = container {
            if isRepeat { error(row, "type", "A repeat inside the page or repeat \"\(open.name)\" cannot be asked here: only a whole page repeats.") }
            if let label, case .object(var step) = steps[open.stepIndex!], case .array(var items)? = step["items"] {
                items.append(.object(["sectionTitle": label]))
                step["items"] = .array(items)
                steps[open.stepIndex!] = .object(step)
            }
        } else if isRepeat || row["appearance"].contains("field-list") {
            guard !name.isEmpty else { return error(row, "name", "The group has no name.") }
            var step = JSONObject([("type", .string("form")), ("identifier", .string(name))])
            step["title"] = label ?? pendingTitle
            pendingTitle = nil
            if isRepeat {
                let count = Int(row["repeat_count"])
                let maximum = min(count ?? 20, 100)
                step["repeat"] = .object(["label": label ?? .string(name), "minimum": .number(Double(min(count ?? 0, 100))),
                                          "maximum": .number(Double(max(maximum, 1)))])
                if let count, count > 100 { warn(row, "repeat_count", "A form repeats at most 100 times here, not \(count).") }
                if count == nil, !row["repeat_count"].isEmpty {
                    warn(row, "repeat_count", "A count worked out from answers is not kept: the participant adds up to \(maximum).")
                }
            }
            step["items"] = .array([])
            group.stepIndex = steps.count
            origins.record(.root / "steps" / steps.count, step: name, row.place)
            if let relevant = relevantCondition(extra: row.cells["relevant"], row: row, column: "relevant") {
                skipRules[name] = .object(["not": relevant])
            }
            steps.append(.object(step))
        } else if let label {
            pendingTitle = label
        }
        groups.append(group)
    }

    private mutating func addNote(_ row: Row) {
        let text = piped(languages.text(row.cells, "label"), row: row) ?? .string("")
        if let open = container {
            var note = JSONObject([("note", text)])
            note["visibleIf"] = relevantCondition(extra: row.cells["relevant"], row: row, column: "relevant", within: open)
            appendItem(.object(note), to: open, row: row)
            return
        }
        guard !row["name"].isEmpty else { return error(row, "name", "The note has no name.") }
        var step = JSONObject([("type", .string("instruction")), ("identifier", .string(row["name"]))])
        // A page needs a heading: the group's label, else the form's title.
        step["title"] = pendingTitle ?? .string(form.settings["form_title"] ?? fallbackIdentifier)
        pendingTitle = nil
        step["text"] = text
        step["detailText"] = piped(languages.text(row.cells, "hint"), row: row)
        addStep(step, row: row)
    }

    mutating func addStep(_ step: JSONObject, row: Row) {
        let name = row["name"]
        if let relevant = relevantCondition(extra: row.cells["relevant"], row: row, column: "relevant") {
            skipRules[name] = .object(["not": relevant])
        }
        origins.record(.root / "steps" / steps.count, step: name, row.place)
        steps.append(.object(step))
    }

    mutating func appendItem(_ item: JSONValue, to group: Group, row: Row) {
        guard let index = group.stepIndex, case .object(var step) = steps[index], case .array(var items)? = step["items"] else { return }
        origins.record(.root / "steps" / index / "items" / items.count, row.place)
        items.append(item)
        step["items"] = .array(items)
        steps[index] = .object(step)
    }

    /// The row's `relevant` with those of the plain groups around it (inside a page, those within
    /// the page), as a predicate; nil when nothing is asked.
    mutating func relevantCondition(extra: String?, row: Row, column: String, within page: Group? = nil) -> JSONValue? {
        let enclosing = page.map { open in groups.drop { $0.row.number != open.row.number }.dropFirst() } ?? groups.filter { $0.stepIndex == nil }[...]
        let sources = enclosing.compactMap(\.relevant) + (extra.map { [$0] } ?? [])
        var parts: [JSONValue] = []
        for source in sources {
            do {
                parts.append(try ExpressionTranslator(fields: fields).predicate(try ExpressionParser.parse(source, .xlsform)))
            } catch {
                self.error(row, column, "\(error.message) The expression is: \(source)")
            }
        }
        if parts.count <= 1 { return parts.first }
        return .object(["all": .array(parts)])
    }
}

extension XLSFormBuilder {
    /// `${name}` in a label as the survey's piped answer, `${selector|}`, shown empty when there is
    /// none, as ODK shows it; a question of the same page, not answered when the page shows, is
    /// left out with a warning.
    mutating func piped(_ text: JSONValue?, row: Row) -> JSONValue? {
        switch text {
        case .string(let words)?:
            return .string(piped(words, row: row))
        case .object(let object)?:
            return .object(JSONObject(object.entries.map { ($0.key, $0.value.stringValue.map { .string(piped($0, row: row)) } ?? $0.value) }))
        default:
            return text
        }
    }

    private mutating func piped(_ words: String, row: Row) -> String {
        guard words.contains("${") else { return words }
        var result = ""
        var rest = Substring(words)
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            let name = String(rest[open.upperBound..<close]).trimmingSpaces
            result += rest[..<open.lowerBound]
            if let field = fields[name] {
                if let page = container, field.selector.hasPrefix(page.name + ".") {
                    warn(row, "label", "${\(name)} is on the same page, so it has no answer yet when the page shows; it is left out.")
                } else {
                    result += "${\(field.selector)|}"
                }
            } else {
                result += rest[open.lowerBound...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
