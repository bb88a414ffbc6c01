import Foundation
import JSON
import SurveyCore

/// Builds one instrument's survey file, a field at a time.
struct REDCapSurveyBuilder {
    typealias Field = REDCapDictionary.Field
    let instrument: String
    /// The dictionary's first field, the record's identifier: REDCap never asks it in a survey.
    let recordField: Field?
    /// Every field of the instrument, for the expressions, which may name a field further on.
    private(set) var known: [String: ImportedField] = [:]
    private var steps: [JSONValue] = []
    private var skipRules = JSONObject()
    private var redcap = JSONObject()
    private(set) var diagnostics: [Diagnostic] = []
    private var origins = ImportOrigins()
    /// The fields asked so far, which a label may pipe.
    var asked: Set<String> = []
    /// The matrix group being filled, with its step's index.
    var grid: (name: String, index: Int)?

    init(instrument: String, fields: [Field], recordField: Field?, usesAPIHeader: Bool) {
        self.instrument = instrument
        self.recordField = recordField
        if usesAPIHeader { redcap["header"] = .string("api") }
        for field in fields where field.row != recordField?.row {
            guard let kind = try? REDCapImport.format(field).kind, field.type != "descriptive" else { continue }
            let group = field[.matrixGroup]
            known[field.name] = group.isEmpty
                ? ImportedField(selector: field.name, linkIds: [field.name], kind: kind)
                : ImportedField(selector: "\(group).\(field.name)", linkIds: [group, "\(group).\(field.name)"], kind: kind)
        }
    }

    var asksSomething: Bool { !steps.isEmpty || diagnostics.contains(where: \.isError) }

    /// "baseline_data" as "Baseline Data".
    var title: String { instrument.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ") }

    var survey: ImportedSurvey {
        var object = JSONObject([("identifier", .string(instrument)), ("title", .string(title))])
        if !redcap.isEmpty { object["redcap"] = .object(redcap) }
        object["steps"] = .array(steps)
        if !skipRules.isEmpty { object["skipRules"] = .object(skipRules) }
        return ImportedSurvey(survey: .object(object), origins: origins)
    }

    mutating func add(_ field: Field) {
        if field.row == recordField?.row {
            // Kept whole, to be written back first, as REDCap wants its identifier.
            let cells = REDCapDictionary.Column.allCases.compactMap { column in field.cells[column].map { (column.apiName, JSONValue.string($0)) } }
            redcap["recordField"] = .object(JSONObject(cells.filter { $0.0 != "form_name" }))
            return
        }
        do {
            try addField(field)
            asked.insert(field.name)
        } catch {
            diagnostics.append(Diagnostic(.error, .root, REDCapImport.place(row: error.row, field: field.name, column: error.column) + ": " + error.message))
        }
    }

    mutating func warn(_ field: Field, _ column: REDCapDictionary.Column?, _ message: String) {
        diagnostics.append(Diagnostic(.warning, .root, REDCapImport.place(row: field.row, field: field.name, column: column) + ": " + message))
    }

    private mutating func addField(_ field: Field) throws(REDCapImport.Failure) {
        let place = REDCapImport.place(row: field.row, field: field.name, column: nil)
        let group = field[.matrixGroup]
        if field.type == "descriptive" {
            grid = nil
            var step = JSONObject([("type", .string("instruction")), ("identifier", .string(field.name))])
            let label = pipe(field[.fieldLabel])
            // A page needs a heading: the section header, else a short label, else the instrument's title.
            if let header = field.cells[.sectionHeader] {
                step["title"] = .string(header)
                step["text"] = .string(label)
            } else if label.count <= 120, !label.contains("<"), !label.contains("\n") {
                step["title"] = .string(label)
            } else {
                step["title"] = .string(title)
                step["text"] = .string(label)
            }
            step["detailText"] = field.cells[.fieldNote].map(JSONValue.string)
            step["redcap"] = provenance(field, label: true)
            try addSkipRule(field)
            origins.record(.root / "steps" / steps.count, step: field.name, place)
            steps.append(.object(step))
            return
        }
        var question = try self.question(field)
        if group.isEmpty {
            grid = nil
            var step = JSONObject([("type", .string("question")), ("identifier", .string(field.name))])
            step["title"] = field.cells[.sectionHeader].map(JSONValue.string)
            step["question"] = .string(pipe(field[.fieldLabel]))
            step["detailText"] = field.cells[.fieldNote].map(JSONValue.string)
            for entry in question.entries { step[entry.key] = entry.value }
            try addSkipRule(field)
            origins.record(.root / "steps" / steps.count, step: field.name, place)
            steps.append(.object(step))
            return
        }
        question["identifier"] = .string(field.name)
        question["text"] = .string(pipe(field[.fieldLabel]))
        question["detailText"] = field.cells[.fieldNote].map(JSONValue.string)
        if let logic = field.cells[.branchingLogic] { question["visibleIf"] = try predicate(logic, field) }
        let ordered = JSONObject(question.entries.sorted { Self.itemOrder($0.key) < Self.itemOrder($1.key) })
        if let open = grid, open.name == group, case .object(var step) = steps[open.index], case .array(var items)? = step["items"] {
            // A section header inside a matrix heads its rows from there; a grid has no place for one.
            if let header = field.cells[.sectionHeader] {
                items.append(.object(["sectionTitle": .string(header)]))
                step["grid"] = nil
            }
            origins.record(.root / "steps" / open.index / "items" / items.count, place)
            items.append(.object(ordered))
            step["items"] = .array(items)
            if field.type != "radio" || Self.choiceText(field) != gridChoices(step) { step["grid"] = nil }
            steps[open.index] = .object(step)
            return
        }
        if steps.contains(where: { if case .object(let step) = $0, case .string(group)? = step["identifier"] { return true } else { return false } }) {
            throw REDCapImport.Failure(row: field.row, column: .matrixGroup, "The matrix group \"\(group)\" was used before, apart from these rows; a group's fields must follow one another.")
        }
        var step = JSONObject([("type", .string("form")), ("identifier", .string(group))])
        step["title"] = field.cells[.sectionHeader].map(JSONValue.string)
        if field.type == "radio" { step["grid"] = .bool(true) }
        step["items"] = .array([.object(ordered)])
        step["redcap"] = .object(["choices": .string(Self.choiceText(field))])
        origins.record(.root / "steps" / steps.count, step: group, place)
        origins.record(.root / "steps" / steps.count / "items" / 0, place)
        grid = (group, steps.count)
        steps.append(.object(step))
    }

    private func gridChoices(_ step: JSONObject) -> String {
        if case .object(let kept)? = step["redcap"], case .string(let text)? = kept["choices"] { return text }
        return ""
    }

    /// The choices as written, without the spaces around codes and labels, to tell a grid's rows alike.
    static func choiceText(_ field: Field) -> String {
        ((try? REDCapImport.choices(field)) ?? []).map { "\($0.code), \($0.label)" }.joined(separator: " | ")
    }

    private static func itemOrder(_ key: String) -> Int {
        ["identifier", "text", "detailText", "optional", "answerFormat", "visibleIf"].firstIndex(of: key) ?? 10
    }

    private mutating func addSkipRule(_ field: Field) throws(REDCapImport.Failure) {
        guard let logic = field.cells[.branchingLogic] else { return }
        skipRules[field.name] = .object(["not": try predicate(logic, field)])
    }

    func predicate(_ logic: String, _ field: Field) throws(REDCapImport.Failure) -> JSONValue {
        do {
            let expression = try ExpressionParser.parse(logic, .redcap)
            return try ExpressionTranslator(fields: known).predicate(expression)
        } catch {
            throw REDCapImport.Failure(row: field.row, column: .branchingLogic, "\(error.message) The logic is: \(logic)")
        }
    }
}
