import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyServer

/// `survey export-definition SURVEY --format fhir`: a survey as a FHIR R4 Questionnaire.
struct ExportDefinition: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-definition",
        abstract: "Write a survey as a FHIR R4 Questionnaire, so a study written here can go to an EHR.",
        discussion: "What has no FHIR equivalent (jumps, review steps, images…) is listed on standard error, with its JSON path in the survey file."
    )

    @Argument(help: "The survey's identifier.")
    var survey: String

    @Option(help: "fhir.")
    var format: String

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: .init(Setting.surveys.help))
    var surveys: String?

    @Option(help: .init(Setting.config.help))
    var config: String?

    func validate() throws {
        guard format == "fhir" else { throw ValidationError("--format must be fhir.") }
    }

    func run() throws {
        let settings = try readSettings(flags([(.surveys, surveys), (.config, config)]))
        let task = try Export.survey(survey, in: try orExit { () throws(SettingError) in try settings.text(.surveys) } ?? "Examples")
        let (questionnaire, notes) = QuestionnaireExport.questionnaire(fromSurvey: task.json, surveyVersion: task.version)
        for note in notes { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
        try OutputSink.writeWhole(JSONWriter.string(questionnaire), to: output)
    }
}
