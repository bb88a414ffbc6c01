import Foundation
import JSON
import SurveyCore

/// An XLSForm (a workbook, or its CSV form) as a survey file (docs/redcap-and-xlsform.md).
public enum XLSFormImport {
    public static func surveys(csvRows: [[String]], name: String) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        ([], [Diagnostic(.error, .root, "The file is neither a REDCap data dictionary nor an XLSForm.")])
    }

    public static func surveys(workbook: Data, name: String) -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic]) {
        ([], [Diagnostic(.error, .root, "XLSForm workbooks cannot be read yet.")])
    }
}
