import Foundation
import JSON
import SurveyAnalysis
import SurveyCore

/// What a store keeps for the researchers' dashboard: each run's facts (`RunFacts`), replaced
/// whenever the run's version moves on, and counted in the store (in SQL for SQLite and
/// PostgreSQL) so that a dashboard never reads its survey's runs into memory. The facts of a
/// deleted run go with it.
public protocol DashboardStore: Sendable {
    /// Runs of a survey changed at or after `changedSince` whose facts are missing or were read
    /// from an earlier version, newest first: those a refresh must read.
    func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) async throws -> [UUID]
    /// Replaces the facts of each run; a run deleted meanwhile is passed over.
    func writeDashboardFacts(_ facts: [RunFacts], survey: String) async throws
    /// The latest change to a survey's runs whose facts are kept, as the last refresh saw it.
    func dashboardWatermark(survey: String) async throws -> Date?
    func setDashboardWatermark(survey: String, _ watermark: Date) async throws
    /// The runs by day and status, the steps and their times, and the answers by outcome.
    func dashboardTally(_ query: DashboardQuery) async throws -> DashboardTally
    /// Per question, how many answers fall in each of its bins.
    func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) async throws -> [String: [Int: Int]]
    /// When each of a survey's discarded runs (`DiscardedRuns`) began, oldest first: the run is
    /// gone, but its chain in the audit log keeps when it began and why it was erased.
    func dashboardDiscardedRuns(survey: String) async throws -> [Date]
}

/// Runs deleted because nobody meant to keep them: the participant chose Discard, or a kiosk
/// turn was left idle and its answers deleted. The runs chart counts them as `discarded` from the
/// audit log; runs deleted for any other reason (retention, the API, the preview) are not shown.
enum DiscardedRuns {
    static let reasons: Set<String> = ["discarded", "kioskIdle"]

    /// When the run an erasure entry closed began, if the entry names one of those reasons: its
    /// `began`, or for an erasure written before erasures carried it, its chain's first entry.
    static func began(detail: String, firstEntryMillis: Int64?) -> Date? {
        guard case .object(let fields)? = try? JSONParser.parse(detail), case .string(let reason)? = fields["reason"],
              reasons.contains(reason) else { return nil }
        if case .string(let text)? = fields["began"] { return DateTimeParsing.instant(text, defaultZone: TimeZone(identifier: "UTC")!) }
        return firstEntryMillis.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// The dashboard's queries, written once for both SQL stores: `placeholder` numbers a bound
/// value as the database expects (`?` or `$n`), `floor` rounds a number down to an integer.
struct DashboardSQL {
    enum Value: Sendable {
        case text(String)
        case integer(Int)
        case real(Double)
    }

    let placeholder: (Int) -> String
    let floor: (String) -> String
    /// The status column as a filter names it: SQLite's planner, seeing `status = ?` on an index
    /// that holds it late, gave up reading the index in the order of its groups and sorted
    /// instead (2.7 times slower at 10⁵ runs); `+status` keeps the order.
    let statusColumn: String
    private(set) var values: [Value] = []

    init(placeholder: @escaping (Int) -> String, floor: @escaping (String) -> String, statusColumn: String = "status") {
        self.placeholder = placeholder
        self.floor = floor
        self.statusColumn = statusColumn
    }

    mutating func bind(_ value: Value) -> String {
        values.append(value)
        return placeholder(values.count)
    }

    /// The `WHERE` clause that picks a query's runs from a table carrying survey, day and status.
    mutating func filter(_ query: DashboardQuery) -> String {
        var conditions = ["survey = \(bind(.text(query.survey)))"]
        if let from = query.fromDay { conditions.append("day >= \(bind(.integer(from)))") }
        if let to = query.toDay { conditions.append("day <= \(bind(.integer(to)))") }
        if let status = query.status { conditions.append("\(statusColumn) = \(bind(.text(status)))") }
        for label in query.labels {
            conditions.append("""
                run IN (SELECT run FROM dashboard_labels WHERE survey = \(bind(.text(query.survey))) \
                AND name = \(bind(.text(label.name))) AND value = \(bind(.text(label.value))))
                """)
        }
        return "WHERE " + conditions.joined(separator: " AND ")
    }

    static func days(_ query: DashboardQuery, _ sql: inout DashboardSQL) -> String {
        "SELECT day, status, COUNT(*) FROM dashboard_runs \(sql.filter(query)) GROUP BY day, status"
    }

    static func steps(_ query: DashboardQuery, _ sql: inout DashboardSQL) -> String {
        "SELECT step, stopped, status, seconds, COUNT(*) FROM dashboard_steps \(sql.filter(query)) GROUP BY step, stopped, status, seconds"
    }

    static func outcomes(_ query: DashboardQuery, _ sql: inout DashboardSQL) -> String {
        """
        SELECT key, outcome, bucket, COUNT(*), MIN(number), MAX(number) FROM dashboard_answers \(sql.filter(query)) \
        GROUP BY key, outcome, bucket
        """
    }

    /// The erasures of a survey's runs that may be discards, by their detail, read from their own
    /// partial index alone; an erasure written before erasures carried `began` brings its
    /// chain's first entry's time instead (`DiscardedRuns.began` reads either).
    static func erasures(survey: String, _ sql: inout DashboardSQL) -> String {
        let reasons = DiscardedRuns.reasons.sorted().map { "e.detail LIKE '%\"reason\":\"\($0)\"%'" }.joined(separator: " OR ")
        return """
            SELECT e.detail, CASE WHEN e.detail NOT LIKE '%"began":%' THEN \
            (SELECT c.at_ms FROM audit_log c WHERE c.chain = e.chain ORDER BY c.seq LIMIT 1) END FROM audit_log e \
            WHERE e.survey = \(sql.bind(.text(survey))) AND e.action = '\(AuditEntry.erasedAction)' AND (\(reasons))
            """
    }

    /// The partial index `erasures` reads, made by each SQL store's migration: it holds all the
    /// query reads, so the erasures are read in a range of it, not from the log.
    static let erasureIndex = """
        CREATE INDEX IF NOT EXISTS audit_log_erasures ON audit_log (survey, action, detail, chain) WHERE action = '\(AuditEntry.erasedAction)'
        """

    static func histogram(_ query: DashboardQuery, key: String, bins: HistogramBins, _ sql: inout DashboardSQL) -> String {
        let origin = sql.bind(.real(bins.origin))
        let width = sql.bind(.real(bins.width))
        let filter = sql.filter(query)
        return """
            SELECT \(sql.floor("(number - \(origin)) / \(width) + \(HistogramBins.nudge)")) AS bin, COUNT(*) FROM dashboard_answers \(filter) \
            AND key = \(sql.bind(.text(key))) AND outcome = '\(AnswerFact.answered)' AND number IS NOT NULL GROUP BY bin
            """
    }
}
