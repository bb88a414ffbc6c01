import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyServer

/// `survey import fhir|redcap|xlsform FILE`: the survey file another format maps to, for editing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the survey file a FHIR Questionnaire, a REDCap data dictionary or an XLSForm maps to.",
        discussion: """
            KIND is fhir (a Questionnaire's JSON, docs/fhir.md), redcap (a data dictionary's CSV, a survey per \
            instrument) or xlsform (a workbook's .xlsx or its CSV form); see docs/redcap-and-xlsform.md. Warnings \
            (what is not carried over) and errors (what cannot be honoured) go to standard error, each naming \
            where it is in the file; with an error nothing is written and the command fails.
            """
    )

    @Argument(help: "What the file is: fhir, redcap or xlsform.")
    var kind: String

    @Argument(help: "The file.")
    var file: String

    @Option(help: "Write the survey file here instead of standard output; for a dictionary of several instruments, a folder to write one file per instrument into.")
    var output: String?

    @Option(help: "Of a REDCap dictionary, only this instrument (its Form Name).")
    var instrument: String?

    @Option(help: "A folder of FHIR packages whose ValueSets and CodeSystems the Questionnaire may name (also those beside the file).")
    var fhirPackages: String?

    func validate() throws {
        guard ["fhir", "redcap", "xlsform"].contains(kind) else {
            throw ValidationError("KIND must be fhir, redcap or xlsform; \"\(kind)\" is not known.")
        }
        if instrument != nil, kind != "redcap" { throw ValidationError("--instrument is for a REDCap dictionary.") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        guard let data = try? Data(contentsOf: url) else { throw ValidationError("\(file) cannot be read.") }
        if kind == "fhir" { return try importQuestionnaire(data, url: url) }
        let name = url.deletingPathExtension().lastPathComponent
        let (surveys, found): ([ImportedSurvey], [Diagnostic])
        if kind == "redcap" {
            guard let rows = try? CSVTable.rows(data), REDCapDictionary.looksLikeDictionary(rows) else {
                throw ValidationError("\(file) is not a REDCap data dictionary (a CSV whose first column is \"Variable / Field Name\" or \"field_name\").")
            }
            (surveys, found) = REDCapImport.surveys(rows: rows, instrument: instrument)
        } else if url.pathExtension.lowercased() == "csv" {
            guard let rows = try? CSVTable.rows(data) else { throw ValidationError("\(file) is not a CSV file.") }
            (surveys, found) = XLSFormImport.surveys(csvRows: rows, name: name)
        } else {
            (surveys, found) = XLSFormImport.surveys(workbook: data, name: name)
        }
        var diagnostics = found
        var written: [(String, JSONValue)] = []
        for imported in surveys {
            // The survey file must load as it is written; its own findings are told at their rows.
            let (task, more) = SurveyLoader.diagnose(imported.survey)
            diagnostics += more.map(imported.origins.placed)
            if task != nil { written.append((imported.identifier, imported.survey)) }
        }
        for diagnostic in diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
        guard !written.isEmpty, !diagnostics.contains(where: \.isError) else { throw ExitCode.failure }
        if written.count == 1 {
            var isFolder: ObjCBool = false
            let target = output.map { path -> String in
                FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                    ? URL(fileURLWithPath: path).appendingPathComponent(written[0].0 + ".json").path : path
            }
            return try OutputSink.writeWhole(JSONWriter.string(written[0].1), to: target)
        }
        guard let output else {
            throw ValidationError("The dictionary has \(written.count) instruments (\(written.map(\.0).joined(separator: ", "))): name one with --instrument, or a folder with --output.")
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (identifier, survey) in written {
            try OutputSink.writeWhole(JSONWriter.string(survey), to: URL(fileURLWithPath: output).appendingPathComponent(identifier + ".json").path)
        }
    }

    private func importQuestionnaire(_ data: Data, url: URL) throws {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw ValidationError("\(file) is not valid JSON: \(error.description).")
        }
        guard QuestionnaireImport.isQuestionnaire(value) else {
            throw ValidationError("\(file) is not a FHIR Questionnaire (its \"resourceType\" is not \"Questionnaire\").")
        }
        let (terminology, problems) = FHIRTerminology.load(surveysFolder: url.deletingLastPathComponent().path, packagesFolder: fhirPackages)
        if let problem = problems.first { throw ValidationError(problem) }
        let (survey, found) = QuestionnaireImport.survey(from: value, fallbackIdentifier: url.deletingPathExtension().lastPathComponent,
                                                         terminology: terminology)
        // The survey file must load as it is written; its own findings follow the Questionnaire's.
        let loaded = survey.map { SurveyLoader.diagnose($0) }
        let diagnostics = found + (loaded?.diagnostics ?? [])
        for diagnostic in diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
        guard let survey, loaded?.task != nil else { throw ExitCode.failure }
        try OutputSink.writeWhole(JSONWriter.string(survey), to: output)
    }
}
