import Foundation
import GRDB
import SurveyAnalysis

extension SQLiteRunStore {
    public func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) async throws -> [UUID] {
        try await pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT r.id FROM runs r LEFT JOIN dashboard_runs d ON d.run = r.id
                WHERE r.survey = ? AND r.updated_at >= ? AND (d.version IS NULL OR d.version <> r.version)
                ORDER BY r.updated_at DESC LIMIT ?
                """, arguments: [survey, changedSince.timeIntervalSince1970, limit]).compactMap(UUID.init(uuidString:))
        }
    }

    public func writeDashboardFacts(_ facts: [RunFacts], survey: String) async throws {
        guard !facts.isEmpty else { return }
        try await committer.write { db in
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM runs WHERE id = ?")
            let remove = try db.cachedStatement(sql: "DELETE FROM dashboard_runs WHERE run = ?")
            let run = try db.cachedStatement(sql: "INSERT INTO dashboard_runs (run, survey, version, day, status) VALUES (?, ?, ?, ?, ?)")
            let label = try db.cachedStatement(sql: "INSERT INTO dashboard_labels (run, survey, name, value) VALUES (?, ?, ?, ?)")
            let step = try db.cachedStatement(sql: """
                INSERT INTO dashboard_steps (run, position, survey, day, status, step, stopped, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let answer = try db.cachedStatement(sql: """
                INSERT INTO dashboard_answers (run, position, survey, day, status, key, outcome, bucket, number)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for fact in facts {
                let id = fact.run.uuidString
                guard try Bool.fetchOne(exists, arguments: [id]) == true else { continue }
                try remove.execute(arguments: [id])
                try run.execute(arguments: [id, survey, fact.version, fact.day, fact.status])
                for (name, value) in fact.labels { try label.execute(arguments: [id, survey, name, value]) }
                for (position, visit) in fact.steps.enumerated() {
                    try step.execute(arguments: [id, position, survey, fact.day, fact.status, visit.step, visit.stopped, visit.seconds])
                }
                for (position, row) in fact.answers.enumerated() {
                    try answer.execute(arguments: [id, position, survey, fact.day, fact.status, row.key, row.outcome, row.bucket, row.number])
                }
            }
        }
    }

    public func dashboardWatermark(survey: String) async throws -> Date? {
        try await pool.read { db in
            try Double.fetchOne(db, sql: "SELECT watermark FROM dashboard_surveys WHERE survey = ?", arguments: [survey])
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    public func setDashboardWatermark(survey: String, _ watermark: Date) async throws {
        try await committer.write { db in
            try db.execute(sql: """
                INSERT INTO dashboard_surveys (survey, watermark) VALUES (?, ?)
                ON CONFLICT (survey) DO UPDATE SET watermark = excluded.watermark
                """, arguments: [survey, watermark.timeIntervalSince1970])
        }
    }

    private static func dashboardSQL() -> DashboardSQL {
        DashboardSQL(placeholder: { _ in "?" }, floor: { "CAST(\($0) AS INTEGER)" }, statusColumn: "+status")
    }

    private static func arguments(_ sql: DashboardSQL) -> StatementArguments {
        StatementArguments(sql.values.map { value -> (any DatabaseValueConvertible) in
            switch value {
            case .text(let text): return text
            case .integer(let number): return number
            case .real(let number): return number
            }
        })
    }

    /// Three queries in one read transaction, so the counts agree with one another.
    public func dashboardTally(_ query: DashboardQuery) async throws -> DashboardTally {
        try await pool.read { db in
            var tally = DashboardTally()
            var sql = Self.dashboardSQL()
            for row in try Row.fetchAll(db, sql: DashboardSQL.days(query, &sql), arguments: Self.arguments(sql)) {
                tally.days.append(DashboardTally.Day(day: row[0], status: row[1], count: row[2]))
            }
            sql = Self.dashboardSQL()
            for row in try Row.fetchAll(db, sql: DashboardSQL.steps(query, &sql), arguments: Self.arguments(sql)) {
                tally.steps.append(DashboardTally.Step(step: row[0], stopped: row[1], status: row[2], seconds: row[3], count: row[4]))
            }
            sql = Self.dashboardSQL()
            for row in try Row.fetchAll(db, sql: DashboardSQL.outcomes(query, &sql), arguments: Self.arguments(sql)) {
                tally.outcomes.append(DashboardTally.Outcome(key: row[0], outcome: row[1], bucket: row[2], count: row[3], minimum: row[4],
                                                             maximum: row[5]))
            }
            return tally
        }
    }

    public func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) async throws -> [String: [Int: Int]] {
        try await pool.read { db in
            var counts: [String: [Int: Int]] = [:]
            for (key, keyBins) in bins {
                var sql = Self.dashboardSQL()
                let text = DashboardSQL.histogram(query, key: key, bins: keyBins, &sql)
                for row in try Row.fetchAll(db, sql: text, arguments: Self.arguments(sql)) {
                    counts[key, default: [:]][keyBins.clamped(row[0]), default: 0] += row[1] as Int
                }
            }
            return counts
        }
    }

    public func dashboardDiscardedRuns(survey: String) async throws -> [Date] {
        try await pool.read { db in
            var sql = Self.dashboardSQL()
            let text = DashboardSQL.erasures(survey: survey, &sql)
            return try Row.fetchAll(db, sql: text, arguments: Self.arguments(sql)).compactMap { row in
                DiscardedRuns.began(detail: row[0], firstEntryMillis: row[1])
            }.sorted()
        }
    }
}
