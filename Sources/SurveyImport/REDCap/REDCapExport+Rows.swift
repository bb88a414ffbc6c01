import Foundation
import JSON
import SurveyCore

extension REDCapExport {
    typealias Column = REDCapDictionary.Column

    mutating func write() {
        let kept = survey["redcap"]
        let api = kept?["header"]?.stringValue == "api"
        rows.append(Column.allCases.map { api ? $0.apiName : $0.designerName })
        var record: [Column: String] = [.fieldName: "record_id", .fieldType: "text", .fieldLabel: "Record ID"]
        if case .object(let field)? = kept?["recordField"] {
            record = [:]
            for column in Column.allCases { record[column] = field[column.apiName]?.stringValue }
        }
        append(record)
        let skipRules = survey["skipRules"]
        if let rules = survey["navigationRules"], case .object(let object) = rules, !object.isEmpty {
            notes.append(Diagnostic(.warning, .root / "navigationRules", "REDCap has no jumps between fields: the navigation rules are not written; give each field the branching logic that shows it instead."))
        }
        for (index, step) in (survey["steps"]?.arrayValue ?? []).enumerated() {
            let path = JSONPath.root / "steps" / index
            let identifier = step["identifier"]?.stringValue ?? ""
            let skip = skipRules?[identifier]
            switch step["type"]?.stringValue {
            case "instruction":
                var cells: [Column: String] = [.fieldName: Self.fieldName(identifier), .fieldType: "descriptive"]
                let text = plain(step["text"])
                // A title that is the survey's own heads the page; it is no section header.
                cells[.sectionHeader] = text.isEmpty || step["title"] == survey["title"] ? "" : plain(step["title"])
                cells[.fieldLabel] = text.isEmpty ? plain(step["title"]) : text
                cells[.fieldNote] = plain(step["detailText"])
                cells[.branchingLogic] = branching(skip.map { .object(["not": $0]) }, kept: step["redcap"], at: path)
                keep(step["redcap"], into: &cells)
                append(cells)
            case "question":
                // A question step whose words are all in its title asks it there.
                let asked = step["question"] ?? step["title"]
                var cells = question(step, selector: identifier, label: asked, at: path)
                cells[.sectionHeader] = step["question"] == nil ? "" : plain(step["title"])
                cells[.branchingLogic] = branching(skip.map { .object(["not": $0]) }, kept: step["redcap"], at: path)
                append(cells)
            case "form":
                form(step, skip: skip, at: path)
            default:
                let type = step["type"]?.stringValue ?? ""
                notes.append(Diagnostic(.warning, path, "\("aeiou".contains(type.prefix(1)) ? "An" : "A") \(type) step has no REDCap field: it is not written."))
            }
        }
    }

    private mutating func form(_ step: JSONValue, skip: JSONValue?, at path: JSONPath) {
        let identifier = step["identifier"]?.stringValue ?? ""
        let isGrid = step["grid"] == .bool(true)
        if step["repeat"] != nil {
            notes.append(Diagnostic(.warning, path / "repeat", "A repeating instrument is set in REDCap's project settings, not in the dictionary: its fields are written once."))
        }
        var header = plain(step["title"])
        for (position, item) in (step["items"]?.arrayValue ?? []).enumerated() {
            let itemPath = path / "items" / position
            if item["sectionTitle"] != nil {
                header = plain(item["sectionTitle"])
                continue
            }
            if item["note"] != nil {
                notes.append(Diagnostic(.warning, itemPath, "A note inside a form is written as a descriptive field."))
                append([.fieldName: Self.fieldName("\(identifier)_note_\(position)"), .fieldType: "descriptive", .fieldLabel: plain(item["note"]),
                        .sectionHeader: header])
                header = ""
                continue
            }
            let name = item["identifier"]?.stringValue ?? ""
            var cells = question(item, selector: "\(identifier).\(name)", label: item["text"], at: itemPath)
            cells[.sectionHeader] = header
            header = ""
            var condition = item["visibleIf"]
            if let skip { condition = condition.map { .object(["all": .array([.object(["not": skip]), $0])]) } ?? .object(["not": skip]) }
            cells[.branchingLogic] = branching(condition, kept: item["redcap"], at: itemPath)
            if isGrid { cells[.matrixGroup] = Self.fieldName(identifier) }
            append(cells)
        }
    }

    /// The row's branching logic: the kept text where it still says what the survey says, else
    /// the survey's condition written anew.
    private mutating func branching(_ condition: JSONValue?, kept: JSONValue?, at path: JSONPath) -> String {
        guard let condition else { return "" }
        if let text = kept?["branchingLogic"]?.stringValue, let written = logic(condition), sameLogic(text, written) { return text }
        guard let written = logic(condition) else {
            notes.append(Diagnostic(.warning, path, "The condition has no form in REDCap's logic (it tests a pattern, a time of day, a repeating form or an expression): the field is written without branching logic."))
            return ""
        }
        return written
    }

    /// Whether two texts of REDCap logic say the same, read into trees.
    func sameLogic(_ left: String, _ right: String) -> Bool {
        guard let one = try? ExpressionParser.parse(left, .redcap), let other = try? ExpressionParser.parse(right, .redcap) else { return false }
        return Self.normalized(one) == Self.normalized(other)
    }

    /// A tree with `==` and `<>` as written, literal quotes and number spellings made alike.
    static func normalized(_ expression: ImportExpression) -> ImportExpression {
        switch expression {
        case .number(let text): return .text(Double(text).map(JSONWriter.number) ?? text)
        case .text(let text): return .text(Double(text).map(JSONWriter.number) ?? text)
        case .binary(let operation, let left, let right): return .binary(operation, normalized(left), normalized(right))
        case .not(let inner): return .not(normalized(inner))
        case .negate(let inner): return .negate(normalized(inner))
        case .call(let name, let arguments): return .call(name, arguments.map(normalized))
        default: return expression
        }
    }

    mutating func keep(_ kept: JSONValue?, into cells: inout [Column: String]) {
        let columns: [(String, Column)] = [("annotation", .annotation), ("alignment", .alignment), ("questionNumber", .questionNumber),
                                           ("matrixRanking", .matrixRanking)]
        for (key, column) in columns {
            if let text = kept?[key]?.stringValue { cells[column] = text }
        }
    }

    mutating func append(_ cells: [Column: String]) {
        var row = Column.allCases.map { cells[$0] ?? "" }
        row[Column.formName.rawValue] = instrument
        rows.append(row)
    }
}
