import Foundation
import JSON
import SurveyCore

/// An XLSForm (a workbook, or its CSV form) as a survey file (docs/redcap-and-xlsform.md).
///
/// A question outside any group is a question step named as the question; a `field-list`
/// group is one form step, and a repeat a repeating form step, whose items are named
/// `group.question`; a plain group's label titles its first step and its `relevant` joins
/// each of its questions'. `relevant` becomes a skip rule (the step is passed over when it does
/// not hold) or an item's `visibleIf`; `calculate` a hidden question with a calculated value.
public enum XLSFormImport {
    /// What stops a form from being read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func surveys(csvRows: [[String]], name: String) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        guard XLSFormSheets.looksLikeCSVForm(csvRows) else {
            return ([], [Diagnostic(.error, .root, "The file is neither a REDCap data dictionary (its first column is not \"Variable / Field Name\" or \"field_name\") nor an XLSForm in CSV (no row starts with \"survey\").")])
        }
        return surveys(sheets: XLSFormSheets.fromCSV(csvRows), name: name)
    }

    public static func surveys(workbook: Data, name: String) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        do {
            let sheets = try Workbook.sheets(from: workbook)
            return surveys(sheets: sheets.map { ($0.name, $0.rows, 1) }, name: name)
        } catch {
            return ([], [Diagnostic(.error, .root, error.message)])
        }
    }

    static func surveys(sheets: [(name: String, rows: [[String]], firstRow: Int)], name: String) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        let form: XLSFormSheets
        do {
            form = try XLSFormSheets(sheets: sheets)
        } catch {
            return ([], [Diagnostic(.error, .root, error.description)])
        }
        var builder = XLSFormBuilder(form: form, fallbackIdentifier: name)
        builder.build()
        guard !builder.diagnostics.contains(where: \.isError) else { return ([], builder.diagnostics) }
        return ([builder.survey], builder.diagnostics)
    }
}
