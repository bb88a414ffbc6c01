import Foundation
import SurveyAnalysis

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
