import Foundation
import JSON
import SurveyCore

/// Every kind of file a surveys folder may hold, read as the surveys it holds: a survey file or
/// a FHIR Questionnaire (`.json`), a REDCap data dictionary or an XLSForm in CSV (`.csv`), an
/// XLSForm workbook (`.xlsx`). A dictionary gives a survey per instrument.
public enum SurveyFiles {
    public static let extensions: Set<String> = ["json", "csv", "xlsx"]

    /// Whether a file's name says it may hold a survey.
    public static func isSurveyFile(_ url: URL) -> Bool {
        extensions.contains(url.pathExtension.lowercased()) && !url.lastPathComponent.hasPrefix(".")
    }

    /// The surveys made from a file that is not a survey file (a dictionary, a form), with what
    /// was found reading it; nil for a `.json` file, which the survey loader reads itself.
    public static func imported(_ data: Data, name: String, pathExtension: String, instrument: String? = nil)
        -> (surveys: [ImportedSurvey], diagnostics: [Diagnostic])? {
        switch pathExtension.lowercased() {
        case "csv":
            let rows: [[String]]
            do {
                rows = try CSVTable.rows(data)
            } catch {
                return ([], [Diagnostic(.error, .root, error.description)])
            }
            if REDCapDictionary.looksLikeDictionary(rows) { return REDCapImport.surveys(rows: rows, instrument: instrument) }
            return XLSFormImport.surveys(csvRows: rows, name: name)
        case "xlsx":
            return XLSFormImport.surveys(workbook: data, name: name)
        default:
            return nil
        }
    }

    /// Each survey of the file, checked, with its findings told at their places in the file.
    public static func diagnose(_ data: Data, name: String, pathExtension: String,
                                terminology: FHIRTerminology = .none) -> [(task: SurveyTask?, diagnostics: [Diagnostic])] {
        guard let (surveys, found) = imported(data, name: name, pathExtension: pathExtension) else {
            return [SurveyLoader.diagnose(data, name: name, terminology: terminology)]
        }
        if surveys.isEmpty { return [(nil, found)] }
        return surveys.enumerated().map { index, imported in
            let (task, more) = SurveyLoader.diagnose(imported.survey)
            // The file's own findings are told once, with its first survey.
            return (task, (index == 0 ? found : []) + more.map(imported.origins.placed))
        }
    }

    /// Whether a CSV file is a dictionary or a form; any other CSV in a surveys folder (answers
    /// exported beside the surveys, say) is not a survey and is left alone.
    public static func isSurveyTable(_ data: Data) -> Bool {
        guard let rows = try? CSVTable.rows(data) else { return false }
        return REDCapDictionary.looksLikeDictionary(rows) || XLSFormSheets.looksLikeCSVForm(rows)
    }

    /// The surveys of a file (none for a CSV file that is neither a dictionary nor a form), or a
    /// `SurveyLoadError` with every error and warning.
    public static func load(contentsOf url: URL, terminology: FHIRTerminology = .none) throws(SurveyLoadError) -> [LoadedSurvey] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SurveyLoadError(diagnostics: [Diagnostic(.error, .root, "The file \(url.path) cannot be read.")])
        }
        if url.pathExtension.lowercased() == "csv", !isSurveyTable(data) { return [] }
        let results = diagnose(data, name: url.deletingPathExtension().lastPathComponent, pathExtension: url.pathExtension,
                               terminology: terminology)
        let all = results.flatMap(\.diagnostics)
        guard all.allSatisfy({ !$0.isError }) else { throw SurveyLoadError(diagnostics: all) }
        return results.compactMap { result in result.task.map { LoadedSurvey(task: $0, warnings: result.diagnostics) } }
    }
}
