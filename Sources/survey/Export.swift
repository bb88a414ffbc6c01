import ArgumentParser
import Foundation
import SurveyCore
import SurveyImport
import SurveyRendering
import SurveyServer

/// `survey export SURVEY --format FORMAT`: a survey's runs from the store, as CSV (wide or
/// long), a codebook, R or SPSS syntax, or JSON results, written as they are read.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a survey's runs for analysis: wide or long CSV, a codebook, R or SPSS syntax, JSON.",
        discussion: """
            FORMAT is csv (one row per run), long (one row per step visit and question, with \
            why an answer is missing), codebook (one row per column of the wide CSV), r or spss \
            (syntax that reads the wide CSV made with --missing-codes, with labels and missing \
            codes), json (each run's result, as docs/survey-format.md#results describes it), researchkit (ResearchKit's serialization), fhir (a \
            FHIR R4 Bundle of QuestionnaireResponses) or fhir-transaction (a transaction Bundle of each \
            run's QuestionnaireResponse and the Observations extracted from it).

            Missing cells of the wide CSV are empty; with --missing-codes they hold -91 (not \
            shown), -92 (skipped), -93 (don't know) or -94 (not reached).
            """
    )

    @Argument(help: "The survey's identifier.")
    var survey: String

    @Option(help: "csv, long, codebook, r, spss, json, researchkit, fhir or fhir-transaction.")
    var format: String

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "completed, saved, discarded, inProgress or all (the default).")
    var status = "all"

    @Option(help: "Only runs changed at or after this ISO 8601 date or date-time.")
    var since: String?

    @Flag(help: "Begin the CSV with a byte order mark, for Excel.")
    var bom = false

    @Flag(help: "Write each missing cell of the wide CSV as its reason's code (for the R and SPSS syntax).")
    var missingCodes = false

    @Flag(help: "Keep the answers that identify the participant (signature names, questions marked identifying); left out by default.")
    var includeIdentifiers = false

    @Option(help: .init(Setting.surveys.help))
    var surveys: String?

    @Option(help: .init(Setting.fhirPackages.help))
    var fhirPackages: String?

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard ExportFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard ExportJob.statuses.contains(status) else {
            throw ValidationError("--status must be one of: \(ExportJob.statuses.joined(separator: ", ")).")
        }
        if let since, DateTimeParsing.instant(since, defaultZone: TimeZone(identifier: "UTC")!) == nil {
            throw ValidationError("--since must be an ISO 8601 date or date-time, such as 2026-11-01 or 2026-11-01T09:00:00+01:00.")
        }
    }

    func run() async throws {
        restrictNewFilesToOwner()
        let settings = try readSettings(flags([(.surveys, surveys), (.fhirPackages, fhirPackages)]).merging(storeOptions.given) { $1 })
        let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(storeSettings: settings) }
        let task = try Self.survey(survey, in: try orExit { () throws(SettingError) in try settings.text(.surveys) } ?? "Examples",
                                   fhirPackages: try orExit { () throws(SettingError) in try settings.text(.fhirPackages) })
        let format = ExportFormat(rawValue: format)!
        let options = Exporter.Options(byteOrderMark: bom, missingCodes: missingCodes, includeIdentifiers: includeIdentifiers)
        let sink = try OutputSink(path: output)
        if configuration.postgresURL == nil, !FileManager.default.fileExists(atPath: configuration.resolvedDatabasePath) {
            guard !format.readsRuns else {
                throw ValidationError("There is no database at \(configuration.resolvedDatabasePath); name it with --database or --data.")
            }
            // The codebook and the syntax describe the survey file alone when there are no runs.
            let exporter = Exporter(format: format, task: task, options: options)
            try sink.write(exporter.head() + exporter.tail())
            try sink.close()
            return
        }
        var job = ExportJob(task: task, format: format, options: options)
        job.status = status == "all" ? nil : status
        job.since = since.flatMap { DateTimeParsing.instant($0, defaultZone: TimeZone(identifier: "UTC")!) }
        try await exportRuns(configuration: configuration, job: job) { try sink.write($0) }
        try sink.close()
    }

    /// The survey of that identifier among the folder's files.
    static func survey(_ identifier: String, in folder: String, fhirPackages: String? = nil) throws -> SurveyTask {
        let files = (try? FileManager.default.contentsOfDirectory(at: URL(fileURLWithPath: folder), includingPropertiesForKeys: nil)) ?? []
        let terminology = FHIRTerminology.load(surveysFolder: folder, packagesFolder: fhirPackages).terminology
        var found: [String] = []
        for file in files where SurveyFiles.isSurveyFile(file) {
            for loaded in (try? SurveyFiles.load(contentsOf: file, terminology: terminology)) ?? [] {
                if loaded.task.identifier == identifier { return loaded.task }
                found.append(loaded.task.identifier)
            }
        }
        throw ValidationError("No survey in \(folder) has the identifier \"\(identifier)\"; it has: \(found.sorted().joined(separator: ", ")).")
    }
}

/// Standard output or a file, written a piece at a time.
final class OutputSink: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    init(path: String?) throws {
        guard let path else {
            handle = .standardOutput
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw ValidationError("\(path) cannot be written.")
        }
        handle = file
    }

    func write(_ text: String) throws {
        lock.lock()
        defer { lock.unlock() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A whole document, ending in a line break, to standard output or a file.
    static func writeWhole(_ text: String, to path: String?) throws {
        let sink = try OutputSink(path: path)
        try sink.write(text.hasSuffix("\n") ? text : text + "\n")
        try sink.close()
    }

    func close() throws {
        if handle !== FileHandle.standardOutput { try handle.close() }
    }
}
