import Foundation
import Logging
import ServiceLifecycle
import SurveyAnalysis
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The dashboard's figures for a survey. The store keeps each run's facts (`RunFacts`) beside
/// it and counts them in SQL, so a dashboard never reads the survey's runs into memory; this
/// service keeps the facts current. A refresh reads the runs changed since the last one saw
/// (less a margin, for replicas whose clocks differ a little) whose version moved on past their
/// facts', and writes their facts; replicas may refresh at once, and each write says the same.
/// Looks at one survey share a refresh that began after them.
actor DashboardService {
    let store: any RunStore
    let clock: @Sendable () -> Date
    /// The refresh under way for each survey, numbered in the order they started.
    private var refreshing: [String: (number: Int, task: Task<Void, any Error>)] = [:]
    private var started = 0
    /// Earlier versions of each survey, read from the store once each.
    private var older: [String: (version: String, task: SurveyTask)] = [:]

    /// Runs changed this long before the last refresh's latest are read again.
    static let margin: TimeInterval = 120
    static let pageSize = 500

    init(store: any RunStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    /// When each survey's dashboard was last looked at.
    private var looked: [String: Date] = [:]
    /// How long after a look the background keeps a survey's facts current.
    static let inUse: TimeInterval = 15 * 60

    /// The figures for a query, once the facts are current.
    func report(_ pages: SurveyPages, timeZone: TimeZone, query: DashboardQuery) async throws -> DashboardReport {
        looked[pages.task.identifier] = clock()
        try await refresh(pages, timeZone: timeZone)
        var tally = try await store.dashboardTally(query)
        tally.addDiscarded(began: try await store.dashboardDiscardedRuns(survey: query.survey), query: query, timeZone: timeZone)
        let bins = DashboardReport.bins(for: tally, questions: DashboardQuestion.all(in: pages.task))
        let histograms = try await store.dashboardHistograms(query, bins: bins)
        return DashboardReport(task: pages.task, tally: tally, bins: bins, histograms: histograms)
    }

    /// Brings the survey's facts up to date. A refresh that started after this call shares its
    /// work; one that started before may have missed the latest change, so it is waited for and
    /// then another runs.
    func refresh(_ pages: SurveyPages, timeZone: TimeZone) async throws {
        let survey = pages.task.identifier
        let arrival = started
        while let current = refreshing[survey] {
            if current.number > arrival { return try await current.task.value }
            _ = try? await current.task.value
            if refreshing[survey]?.number == current.number { refreshing[survey] = nil }
        }
        let reader = FactReader(task: pages.task, older: try await olderVersions(of: pages.task), timeZone: timeZone)
        if let current = refreshing[survey], current.number > arrival { return try await current.task.value }
        started += 1
        let number = started
        let task = Task { try await Self.bringUpToDate(survey: survey, reader: reader, store: store) }
        refreshing[survey] = (number, task)
        defer { if refreshing[survey]?.number == number { refreshing[survey] = nil } }
        try await task.value
    }

    /// Whether the background should refresh a survey's facts now: while its dashboard is in
    /// use (looked at in the last quarter of an hour), and once for a store that has no facts yet,
    /// so the first look does not wait for every run to be read. Otherwise the facts wait for
    /// the next look, and participants' answers cost nothing more.
    func wantsRefresh(_ survey: String) async throws -> Bool {
        if let last = looked[survey], clock().timeIntervalSince(last) < Self.inUse { return true }
        return try await store.dashboardWatermark(survey: survey) == nil
    }

    private func olderVersions(of task: SurveyTask) async throws -> [(version: String, task: SurveyTask)] {
        var found: [(version: String, task: SurveyTask)] = []
        for kept in try await store.surveyVersions(survey: task.identifier) where kept.version != task.version {
            let key = task.identifier + "\u{0}" + kept.version
            if older[key] == nil, let loaded = try? SurveyLoader.load(Data(kept.definition.utf8)) { older[key] = (kept.version, loaded.task) }
            if let known = older[key] { found.append(known) }
        }
        return found
    }

    /// With a watermark, the store names the runs changed since it (less the margin) whose facts
    /// are missing or older, newest first through the index on (survey, updated_at), and only
    /// those are read, a page at a time until none is left. With no watermark yet, every run of
    /// the survey is read in identifier order and its facts written.
    private static func bringUpToDate(survey: String, reader: FactReader, store: any RunStore) async throws {
        let watermark = try await store.dashboardWatermark(survey: survey)
        var latest = watermark
        func write(_ records: [RunRecord]) async throws {
            let facts = records.map { reader.facts(of: $0.run, status: $0.status, version: $0.version, surveyVersion: $0.surveyVersion) }
            try await store.writeDashboardFacts(facts, survey: survey)
            if let newest = records.map(\.updatedAt).max() { latest = max(latest ?? newest, newest) }
        }
        if let watermark {
            // A run written again while this runs comes back; a page's worth of rounds past the
            // runs there were is enough for any but a store changing faster than it is read.
            for _ in 0..<1_000 {
                let stale = try await store.dashboardStaleRuns(survey: survey, changedSince: watermark.addingTimeInterval(-margin),
                                                              limit: pageSize)
                try await write(try await store.records(ids: stale))
                guard stale.count == pageSize else { break }
            }
        } else {
            try await store.forEachPage(matching: RunQuery(survey: survey, limit: pageSize)) { try await write($0) }
        }
        // A survey with no runs yet starts its watermark at the beginning of time.
        try await store.setDashboardWatermark(survey: survey, latest ?? Date(timeIntervalSince1970: 0))
    }
}

/// Every minute, brings the dashboard facts of each survey whose dashboard is in use up to date,
/// so a look finds little left to read; at start, reads every run once for a store that has no
/// facts yet (after an upgrade).
struct DashboardRefresh: Service {
    let service: DashboardService
    let surveys: [(pages: SurveyPages, timeZone: TimeZone)]
    let logger: Logger
    var pause: TimeInterval = 60

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                for (pages, timeZone) in surveys where !Task.isCancelled {
                    do {
                        guard try await service.wantsRefresh(pages.task.identifier) else { continue }
                        try await service.refresh(pages, timeZone: timeZone)
                    } catch {
                        logger.error("Could not bring the dashboard of \(pages.task.identifier) up to date")
                    }
                }
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}
