import Foundation
import JSON
import SurveyCore

/// A REDCap data dictionary as survey files, one per instrument (docs/redcap-and-xlsform.md).
///
/// Each field is a question step named as the field, so that rules, piping and the exports
/// speak of `[age]` as `age`; a matrix group is a grid (a form step named as the group); a
/// descriptive field an instruction step. Branching logic becomes the step's skip rule (the
/// step is passed over when the logic does not hold), or a grid row's `visibleIf`.
public enum REDCapImport {
    /// What stops a dictionary, or one of its fields, from being read: its row and column.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let row: Int
        public let column: REDCapDictionary.Column?
        public let message: String

        public init(row: Int, column: REDCapDictionary.Column?, _ message: String) {
            self.row = row
            self.column = column
            self.message = message
        }

        public var description: String { "\(place(row: row, field: nil, column: column)): \(message)" }
    }

    /// "Row 12 (age), column Branching Logic", in the designer's names of the columns.
    static func place(row: Int, field: String?, column: REDCapDictionary.Column?) -> String {
        var text = "Row \(row)"
        if let field, !field.isEmpty { text += " (\(field))" }
        if let column { text += ", column \"\(column.designerName)\"" }
        return text
    }

    /// The surveys of a dictionary's rows (every instrument, or the one named) and what was found
    /// on the way; an instrument with an error gives no survey.
    public static func surveys(rows: [[String]], instrument: String? = nil) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        let dictionary: REDCapDictionary
        do {
            dictionary = try REDCapDictionary(rows: rows)
        } catch {
            return ([], [Diagnostic(.error, .root, error.description)])
        }
        var names = dictionary.instruments
        if let instrument {
            guard names.contains(instrument) else {
                return ([], [Diagnostic(.error, .root, "The dictionary has no instrument \"\(instrument)\"; it has \(names.joined(separator: ", ")).")])
            }
            names = [instrument]
        }
        var surveys: [ImportedSurvey] = []
        var diagnostics: [Diagnostic] = []
        for name in names {
            let fields = dictionary.fields.filter { $0[.formName] == name }
            var builder = REDCapSurveyBuilder(instrument: name, fields: fields, recordField: dictionary.recordField,
                                              usesAPIHeader: dictionary.usesAPIHeader)
            for field in fields { builder.add(field) }
            diagnostics += builder.diagnostics
            guard builder.asksSomething else {
                diagnostics.append(Diagnostic(.warning, .root, "The instrument \"\(name)\" holds only the record's identifier; it makes no survey."))
                continue
            }
            if !builder.diagnostics.contains(where: \.isError) { surveys.append(builder.survey) }
        }
        return (surveys, diagnostics)
    }
}
