import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyServer

/// `survey export-definition SURVEY --format fhir|redcap`: a survey as a FHIR R4 Questionnaire or a REDCap data dictionary.
struct ExportDefinition: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-definition",
        abstract: "Write a survey as a FHIR R4 Questionnaire (for an EHR) or a REDCap data dictionary (an instrument REDCap's designer accepts).",
        discussion: "What has no equivalent in the format (jumps, review steps, images…) is listed on standard error, with its JSON path in the survey file."
    )

    @Argument(help: "The survey's identifier.")
    var survey: String

    @Option(help: "fhir or redcap.")
    var format: String

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: .init(Setting.surveys.help))
    var surveys: String?

    @Option(help: .init(Setting.config.help))
    var config: String?

    func validate() throws {
        guard format == "fhir" || format == "redcap" else { throw ValidationError("--format must be fhir or redcap.") }
    }

    func run() throws {
        let settings = try readSettings(flags([(.surveys, surveys), (.config, config)]))
        let task = try Export.survey(survey, in: try orExit { () throws(SettingError) in try settings.text(.surveys) } ?? "Examples")
        if format == "redcap" {
            let (rows, notes) = REDCapExport.dictionary(task)
            for note in notes { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
            return try OutputSink.writeWhole(CSVTable.text(rows), to: output)
        }
        let (questionnaire, notes) = QuestionnaireExport.questionnaire(fromSurvey: task.json, surveyVersion: task.version)
        for note in notes { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
        try OutputSink.writeWhole(JSONWriter.string(questionnaire), to: output)
    }
}
