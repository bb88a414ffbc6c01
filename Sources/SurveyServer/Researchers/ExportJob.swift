import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import SurveyCore
import SurveyRendering
import SurveyStorage

/// One export of a survey's runs: read from the store a page at a time and written out as it
/// goes, so the memory it takes does not grow with the number of runs. `survey export` and the
/// researcher API's `/surveys/{survey}/export` both run it.
public struct ExportJob: Sendable {
    public var task: SurveyTask
    public var format: ExportFormat
    public var options: Exporter.Options
    /// `completed`, `saved`, `discarded`, `inProgress`; nil for every run.
    public var status: String?
    /// Runs changed at or after this instant.
    public var since: Date?
    /// Runs read from the store at a time.
    public var pageSize = 500

    public init(task: SurveyTask, format: ExportFormat, options: Exporter.Options = .init(), status: String? = nil, since: Date? = nil) {
        self.task = task
        self.format = format
        self.options = options
        self.status = status
        self.since = since
    }

    /// The statuses `--status` and `?status=` take; `all` is every run.
    public static let statuses = ["completed", "declined", "saved", "discarded", "inProgress", "all"]

    /// Writes the whole export through `write`, a piece at a time.
    public func run(store: any RunStore, write: @concurrent (String) async throws -> Void) async throws {
        // Earlier versions of the survey, so runs made with them read as their participants saw them.
        var older: [(version: String, task: SurveyTask)] = []
        for kept in try await store.surveyVersions(survey: task.identifier) where kept.version != task.version {
            if let loaded = try? SurveyLoader.load(Data(kept.definition.utf8)) { older.append((kept.version, loaded.task)) }
        }
        let exporter = Exporter(format: format, task: task, older: older, options: options)
        try await write(exporter.head())
        if format.readsRuns {
            let query = RunQuery(survey: task.identifier, status: status, updatedSince: since, limit: pageSize)
            try await store.forEachPage(matching: query) { records in
                var piece = ""
                for record in records {
                    piece += exporter.write(ExportedRun(run: record.run, status: record.status, participant: record.externalID,
                                                        updatedAt: record.updatedAt, surveyVersion: record.surveyVersion,
                                                        fhirContext: record.fhirContext))
                }
                try await write(piece)
            }
        }
        try await write(exporter.tail())
    }
}

/// `survey export`: the store the configuration names, opened with its services running for
/// as long as the export takes.
public func exportRuns(configuration: ServerConfiguration, job: ExportJob, write: @escaping @Sendable (String) throws -> Void) async throws {
    var logger = Logger(label: "survey", factory: LineLogHandler.init)
    logger.logLevel = .warning
    let setup = try StoreSetup.open(configuration)
    let work = OneShotService {
        try await setup.store.migrate()
        try await job.run(store: setup.store) { try write($0) }
    }
    let services = setup.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        + [ServiceGroupConfiguration.ServiceConfiguration(service: work, successTerminationBehavior: .gracefullyShutdownGroup)]
    try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger)).run()
}
