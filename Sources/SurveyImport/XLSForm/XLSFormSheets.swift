import Foundation

/// An XLSForm's sheets read as rows of named cells: `survey`, `choices` and `settings`, from a
/// workbook or from the CSV form (a row whose first cell names a sheet starts it; the sheet's
/// rows follow with that first cell empty).
struct XLSFormSheets {
    struct Row {
        let sheet: String
        /// The row's number in its sheet (the header is 1); in the CSV form, the file's line.
        let number: Int
        let cells: [String: String]
        subscript(_ column: String) -> String { cells[column] ?? "" }

        /// `Sheet survey, row 5 (age)`.
        var place: String {
            let name = cells["name"].map { " (\($0))" } ?? ""
            return "Sheet \(sheet), row \(number)\(name)"
        }
    }

    var survey: [Row] = []
    var choices: [Row] = []
    var settings: [String: String] = [:]
    /// Every column of the survey and choices sheets, in their order, for the languages.
    var surveyColumns: [String] = []
    var choiceColumns: [String] = []

    init(sheets: [(name: String, rows: [[String]], firstRow: Int)]) throws(XLSFormImport.Failure) {
        for sheet in sheets {
            let kind = sheet.name.lowercased()
            guard ["survey", "choices", "settings"].contains(kind), let header = sheet.rows.first else { continue }
            let columns = header.map { $0.trimmingSpaces }
            var rows: [Row] = []
            for (offset, cells) in sheet.rows.enumerated().dropFirst() where cells.contains(where: { !$0.trimmingSpaces.isEmpty }) {
                var named: [String: String] = [:]
                for (index, cell) in cells.enumerated() where index < columns.count && !columns[index].isEmpty {
                    let value = cell.trimmingSpaces
                    if !value.isEmpty { named[Self.canonical(columns[index])] = value }
                }
                rows.append(Row(sheet: kind, number: sheet.firstRow + offset, cells: named))
            }
            switch kind {
            case "survey":
                survey = rows
                surveyColumns = columns.map(Self.canonical)
            case "choices":
                choices = rows
                choiceColumns = columns.map(Self.canonical)
            default:
                if let first = rows.first { settings = first.cells }
            }
        }
        guard !survey.isEmpty else { throw XLSFormImport.Failure("The form has no survey sheet, or it is empty: this is not an XLSForm.") }
    }

    /// Column names as XLSForm reads them: `list name` is `list_name`, `label::English (en)` keeps its language.
    static func canonical(_ column: String) -> String {
        // `label:English (en)`, with one colon, is read as pyxform reads it.
        var column = column
        if !column.contains("::"), let colon = column.firstIndex(of: ":"),
           ["label", "hint", "constraint_message", "required_message", "guidance_hint"].contains(column[..<colon].lowercased()) {
            column.replaceSubrange(colon...colon, with: "::")
        }
        let parts = column.components(separatedBy: "::")
        let base = parts[0].trimmingSpaces.lowercased().replacingOccurrences(of: " ", with: "_")
        let aliases = ["list_name": "list_name", "listname": "list_name", "caption": "label", "relevance": "relevant",
                       "readonly": "read_only", "appearance": "appearance", "calculate": "calculation", "hint": "hint"]
        let name = aliases[base] ?? base
        return parts.count > 1 ? name + "::" + parts.dropFirst().joined(separator: "::").trimmingSpaces : name
    }

    /// The sheets of the CSV form.
    static func fromCSV(_ rows: [[String]]) -> [(name: String, rows: [[String]], firstRow: Int)] {
        var sheets: [(name: String, rows: [[String]], firstRow: Int)] = []
        for (index, row) in rows.enumerated() {
            let first = row.first?.trimmingSpaces ?? ""
            if !first.isEmpty {
                sheets.append((first, [Array(row.dropFirst())], index + 1))
            } else if !sheets.isEmpty {
                sheets[sheets.count - 1].rows.append(Array(row.dropFirst()))
            }
        }
        return sheets
    }

    /// Whether rows are an XLSForm in its CSV form.
    static func looksLikeCSVForm(_ rows: [[String]]) -> Bool {
        rows.contains { $0.first?.trimmingSpaces.lowercased() == "survey" }
    }
}
