import Foundation
import JSON
import Logging
import NIOCore
import ServiceLifecycle
import SurveyAnalysis
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

    /// What the audit log says of the export: its format, filters and options.
    func auditDetail(rows: Int?) -> JSONValue {
        .object([
            "format": .string(format.rawValue), "status": .string(status ?? "all"),
            "since": since.map { .string(DateTimeParsing.preciseString($0, in: TimeZone(identifier: "UTC")!)) },
            "includeIdentifiers": .bool(options.includeIdentifiers), "missingCodes": .bool(options.missingCodes),
            "rows": rows.map { .number(Double($0)) },
        ])
    }

    /// Records the export in the audit log's `access` chain: `export.started` before the first
    /// byte (a caller that cannot record it sends nothing), `export.made` with its rows once whole.
    func record(_ action: String, rows: Int?, by actor: AuditActor, in store: any RunStore) async throws {
        try await store.appendAudit([AuditEvent(action, by: actor, at: Date(), survey: task.identifier, detail: auditDetail(rows: rows))],
                                    chain: AuditEntry.accessChain)
    }

    /// Writes the whole export through `write`, a piece at a time; returns how many runs it holds.
    /// With `actor`, the audit log records it as made, with its row count, once it is whole.
    @discardableResult
    public func run(store: any RunStore, recordedAs actor: AuditActor? = nil, write: @concurrent (String) async throws -> Void) async throws -> Int {
        // Earlier versions of the survey, so runs made with them read as their participants saw them.
        var older: [(version: String, task: SurveyTask)] = []
        for kept in try await store.surveyVersions(survey: task.identifier) where kept.version != task.version {
            if let loaded = try? SurveyLoader.load(Data(kept.definition.utf8)) { older.append((kept.version, loaded.task)) }
        }
        // A repeating form gets columns for as many instances as the most any run has: the
        // runs are read once for that before the header is written (only where it matters).
        var instanceCounts: [String: Int] = [:]
        if [.csv, .codebook, .r, .spss].contains(format), task.steps.contains(where: { $0.repeating != nil }) {
            let query = RunQuery(survey: task.identifier, status: status, updatedSince: since, limit: pageSize)
            try await store.forEachPage(matching: query) { records in
                for record in records { ExportLayout.countInstances(of: record.run, into: &instanceCounts) }
            }
        }
        let exporter = Exporter(format: format, task: task, older: older, options: options, instanceCounts: instanceCounts)
        try await write(exporter.head())
        var rows = 0
        if format.readsRuns {
            let query = RunQuery(survey: task.identifier, status: status, updatedSince: since, limit: pageSize)
            try await store.forEachPage(matching: query) { records in
                var piece = ""
                for record in records {
                    piece += exporter.write(ExportedRun(run: record.run, status: record.status, participant: record.externalID,
                                                        updatedAt: record.updatedAt, surveyVersion: record.surveyVersion,
                                                        fhirContext: record.fhirContext))
                }
                rows += records.count
                try await write(piece)
            }
        }
        try await write(exporter.tail())
        if let actor { try await record("export.made", rows: rows, by: actor, in: store) }
        return rows
    }
}

/// `survey export`: the store the configuration names, opened with its services running for
/// as long as the export takes.
public func exportRuns(configuration: ServerConfiguration, job: ExportJob, write: @escaping @Sendable (String) throws -> Void) async throws {
    try await usingStore(configuration) { store in
        let actor = AuditActor.system("command line")
        try await job.record("export.started", rows: nil, by: actor, in: store)
        try await job.run(store: store, recordedAs: actor) { try write($0) }
    }
}

/// Runs `work` on the store the configuration names (migrated first), with the store's
/// services running for as long as it takes: what `survey export` and `survey audit` do.
public func usingStore(_ configuration: ServerConfiguration, _ work: @escaping @Sendable (any RunStore) async throws -> Void) async throws {
    var logger = Logger(label: "survey", factory: LineLogHandler.init)
    logger.logLevel = .warning
    let setup = try StoreSetup.open(configuration)
    let oneShot = OneShotService {
        try await setup.store.migrate()
        try await work(setup.store)
    }
    let services = setup.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        + [ServiceGroupConfiguration.ServiceConfiguration(service: oneShot, successTerminationBehavior: .gracefullyShutdownGroup)]
    try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger)).run()
}
