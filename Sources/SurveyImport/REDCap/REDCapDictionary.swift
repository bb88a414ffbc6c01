import Foundation

/// A REDCap data dictionary: one field per row, in either header style (the designer's
/// "Variable / Field Name", … or the API's `field_name`, …).
public struct REDCapDictionary: Sendable {
    /// The dictionary's columns, in REDCap's order, with both of their names.
    public enum Column: Int, CaseIterable, Sendable {
        case fieldName, formName, sectionHeader, fieldType, fieldLabel, choices, fieldNote, validation,
             validationMinimum, validationMaximum, identifier, branchingLogic, required, alignment,
             questionNumber, matrixGroup, matrixRanking, annotation

        public var apiName: String {
            ["field_name", "form_name", "section_header", "field_type", "field_label", "select_choices_or_calculations",
             "field_note", "text_validation_type_or_show_slider_number", "text_validation_min", "text_validation_max",
             "identifier", "branching_logic", "required_field", "custom_alignment", "question_number", "matrix_group_name",
             "matrix_ranking", "field_annotation"][rawValue]
        }

        public var designerName: String {
            ["Variable / Field Name", "Form Name", "Section Header", "Field Type", "Field Label",
             "Choices, Calculations, OR Slider Labels", "Field Note", "Text Validation Type OR Show Slider Number",
             "Text Validation Min", "Text Validation Max", "Identifier?", "Branching Logic (Show field only if...)",
             "Required Field?", "Custom Alignment", "Question Number (surveys only)", "Matrix Group Name", "Matrix Ranking?",
             "Field Annotation"][rawValue]
        }
    }

    /// One row: its cells by column, and its line in the file for messages.
    public struct Field: Sendable {
        public let row: Int
        public var cells: [Column: String]
        public subscript(_ column: Column) -> String { cells[column] ?? "" }
        public var name: String { self[.fieldName] }
        public var type: String { self[.fieldType].lowercased() }
    }

    public let fields: [Field]
    /// Whether the file used the API's header names; an export writes the same style back.
    public let usesAPIHeader: Bool

    /// The record's identifier: the first field, when it is a text field with no logic, as REDCap's
    /// first field is. An instrument from REDCap's library has none; its first field is asked.
    public var recordField: Field? {
        guard let first = fields.first, first.type == "text", first.cells[.branchingLogic] == nil,
              first.cells[.matrixGroup] == nil, first.cells[.annotation] == nil else { return nil }
        return first
    }

    /// The instruments, in the order their first fields come.
    public var instruments: [String] {
        var seen: [String] = []
        for field in fields where !seen.contains(field[.formName]) { seen.append(field[.formName]) }
        return seen
    }

    /// Whether these rows start with a data dictionary's header.
    public static func looksLikeDictionary(_ rows: [[String]]) -> Bool {
        guard let first = rows.first?.first.map(headerName) else { return false }
        return first == "field_name" || first == Column.fieldName.designerName.lowercased()
    }

    /// The first header cell without what a spreadsheet put before it (a byte-order mark read
    /// as Latin-1 and quoted: `ï»¿"Variable / Field Name"`).
    static func headerName(_ cell: String) -> String {
        let lowered = cell.trimmingSpaces.lowercased()
        for name in [Column.fieldName.designerName.lowercased(), Column.fieldName.apiName] where lowered.hasSuffix(name) || lowered.hasSuffix(name + "\"") {
            return name
        }
        return lowered
    }

    public init(rows: [[String]]) throws(REDCapImport.Failure) {
        guard let header = rows.first else { throw REDCapImport.Failure(row: 1, column: nil, "The file is empty.") }
        var positions: [Column: Int] = [:]
        var api = false
        for (index, cell) in header.enumerated() {
            let name = index == 0 ? Self.headerName(cell) : cell.trimmingSpaces.lowercased()
            if let column = Column.allCases.first(where: { $0.apiName == name }) {
                positions[column] = index
                api = true
            } else if let column = Column.allCases.first(where: { $0.designerName.lowercased() == name }) {
                positions[column] = index
            }
        }
        // Older dictionaries name some columns otherwise ("Choices OR Calculations"); their place is the same.
        for (index, _) in header.enumerated() where !positions.values.contains(index) {
            if let column = Column(rawValue: index), positions[column] == nil { positions[column] = index }
        }
        for needed in [Column.fieldName, .formName, .fieldType, .fieldLabel] where positions[needed] == nil {
            throw REDCapImport.Failure(row: 1, column: nil,
                                       "The header has no column \"\(needed.designerName)\" (or \"\(needed.apiName)\"): this is not a REDCap data dictionary.")
        }
        var fields: [Field] = []
        for (offset, row) in rows.enumerated().dropFirst() where row.contains(where: { !$0.trimmingSpaces.isEmpty }) {
            var cells: [Column: String] = [:]
            for (column, index) in positions where index < row.count {
                let cell = row[index].trimmingSpaces
                // R writes a blank cell as NA; no column but a label means anything by it.
                if !cell.isEmpty, cell != "NA" || column == .fieldLabel { cells[column] = cell }
            }
            fields.append(Field(row: offset + 1, cells: cells))
        }
        self.fields = fields
        usesAPIHeader = api
    }
}
