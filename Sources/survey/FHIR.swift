import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyServer

/// `survey import fhir FILE`: a FHIR R4 Questionnaire as the survey file it maps to, for editing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the survey file a FHIR R4 Questionnaire maps to (see docs/fhir.md).",
        discussion: """
            KIND is fhir. Warnings (ignored extensions) and errors (what cannot be honoured) go to \
            standard error with the JSON path in the Questionnaire; with an error nothing is written \
            and the command fails.
            """
    )

    @Argument(help: "What the file is: fhir.")
    var kind: String

    @Argument(help: "The Questionnaire's JSON file.")
    var file: String

    @Option(help: "Write the survey file here instead of standard output.")
    var output: String?

    @Option(help: "A folder of FHIR packages whose ValueSets and CodeSystems the Questionnaire may name (also those beside the file).")
    var fhirPackages: String?

    func validate() throws {
        guard kind == "fhir" else { throw ValidationError("Only fhir can be imported; \"\(kind)\" is not known.") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        guard let data = try? Data(contentsOf: url) else { throw ValidationError("\(file) cannot be read.") }
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
