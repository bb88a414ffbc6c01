import Foundation
import PostgresNIO
import SurveyAnalysis

extension PostgresRunStore {
    /// Each run's facts for the researchers' dashboard, gone with the run; the indexes hold
    /// every column a dashboard query groups or filters by. Tables keyed by run are spread by
    /// run when the store is partitioned, as the run tables are.
    func createDashboard(_ connection: PostgresConnection) async throws {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS dashboard_surveys (survey TEXT PRIMARY KEY, watermark DOUBLE PRECISION NOT NULL)
            """, logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS dashboard_runs (
                run UUID NOT NULL REFERENCES runs (id) ON DELETE CASCADE, survey TEXT NOT NULL, version INTEGER NOT NULL,
                day INTEGER NOT NULL, status TEXT NOT NULL, PRIMARY KEY (run))\(unescaped: partitioning("run"))
            """, logger: logger)
        try await createPartitions(of: "dashboard_runs", connection)
        try await connection.query("CREATE INDEX IF NOT EXISTS dashboard_runs_by_day ON dashboard_runs (survey, day, status)", logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS dashboard_labels (
                run UUID NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, survey TEXT NOT NULL, name TEXT NOT NULL,
                value TEXT NOT NULL, PRIMARY KEY (run, name))\(unescaped: partitioning("run"))
            """, logger: logger)
        try await createPartitions(of: "dashboard_labels", connection)
        try await connection.query("CREATE INDEX IF NOT EXISTS dashboard_labels_by_value ON dashboard_labels (survey, name, value)",
                                   logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS dashboard_steps (
                run UUID NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, position INTEGER NOT NULL, survey TEXT NOT NULL,
                day INTEGER NOT NULL, status TEXT NOT NULL, step TEXT NOT NULL, stopped BOOLEAN NOT NULL, seconds INTEGER,
                PRIMARY KEY (run, position))\(unescaped: partitioning("run"))
            """, logger: logger)
        try await createPartitions(of: "dashboard_steps", connection)
        try await connection.query("""
            CREATE INDEX IF NOT EXISTS dashboard_steps_by_step ON dashboard_steps (survey, step, stopped, status, seconds, day)
            """, logger: logger)
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS dashboard_answers (
                run UUID NOT NULL REFERENCES dashboard_runs (run) ON DELETE CASCADE, position INTEGER NOT NULL, survey TEXT NOT NULL,
                day INTEGER NOT NULL, status TEXT NOT NULL, key TEXT NOT NULL, outcome TEXT NOT NULL, bucket TEXT,
                number DOUBLE PRECISION, PRIMARY KEY (run, position))\(unescaped: partitioning("run"))
            """, logger: logger)
        try await createPartitions(of: "dashboard_answers", connection)
        try await connection.query("""
            CREATE INDEX IF NOT EXISTS dashboard_answers_by_key ON dashboard_answers (survey, key, outcome, bucket, number, day, status)
            """, logger: logger)
    }

    public func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) async throws -> [UUID] {
        var stale: [UUID] = []
        for try await id in try await client.query("""
            SELECT r.id FROM runs r LEFT JOIN dashboard_runs d ON d.run = r.id
            WHERE r.survey = \(survey) AND r.updated_at >= \(changedSince.timeIntervalSince1970)
            AND (d.version IS NULL OR d.version <> r.version) ORDER BY r.updated_at DESC LIMIT \(limit)
            """, logger: logger).decode(UUID.self) {
            stale.append(id)
        }
        return stale
    }

    public func writeDashboardFacts(_ facts: [RunFacts], survey: String) async throws {
        guard !facts.isEmpty else { return }
        try await client.withTransaction(logger: logger) { connection in
            for fact in facts {
                // A run deleted meanwhile has no row to hang facts on.
                try await connection.query("DELETE FROM dashboard_runs WHERE run = \(fact.run)", logger: self.logger)
                var inserted = false
                for try await _ in try await connection.query("""
                    INSERT INTO dashboard_runs (run, survey, version, day, status)
                    SELECT id, \(survey), \(fact.version), \(fact.day), \(fact.status) FROM runs WHERE id = \(fact.run) RETURNING 1
                    """, logger: self.logger).decode(Int.self) { inserted = true }
                guard inserted else { continue }
                for (name, value) in fact.labels {
                    try await connection.query("""
                        INSERT INTO dashboard_labels (run, survey, name, value) VALUES (\(fact.run), \(survey), \(name), \(value))
                        """, logger: self.logger)
                }
                // Arrays hold no nulls here: a step still showing is sent as -1 seconds, an answer
                // without a choice or a number with a flag beside it.
                if !fact.steps.isEmpty {
                    try await connection.query("""
                        INSERT INTO dashboard_steps (run, position, survey, day, status, step, stopped, seconds)
                        SELECT \(fact.run), position - 1, \(survey), \(fact.day), \(fact.status), step, stopped, NULLIF(seconds, -1)
                        FROM unnest(\(fact.steps.map(\.step)), \(fact.steps.map(\.stopped)), \(fact.steps.map { $0.seconds ?? -1 }))
                            WITH ORDINALITY AS visit(step, stopped, seconds, position)
                        """, logger: self.logger)
                }
                if !fact.answers.isEmpty {
                    try await connection.query("""
                        INSERT INTO dashboard_answers (run, position, survey, day, status, key, outcome, bucket, number)
                        SELECT \(fact.run), position - 1, \(survey), \(fact.day), \(fact.status), key, outcome,
                               CASE WHEN has_bucket THEN bucket END, CASE WHEN has_number THEN number END
                        FROM unnest(\(fact.answers.map(\.key)), \(fact.answers.map(\.outcome)), \(fact.answers.map { $0.bucket ?? "" }),
                                    \(fact.answers.map { $0.bucket != nil }), \(fact.answers.map { $0.number ?? 0 }),
                                    \(fact.answers.map { $0.number != nil }))
                            WITH ORDINALITY AS answer(key, outcome, bucket, has_bucket, number, has_number, position)
                        """, logger: self.logger)
                }
            }
        }
    }

    public func dashboardWatermark(survey: String) async throws -> Date? {
        for try await seconds in try await client.query("SELECT watermark FROM dashboard_surveys WHERE survey = \(survey)",
                                                        logger: logger).decode(Double.self) {
            return Date(timeIntervalSince1970: seconds)
        }
        return nil
    }

    /// Replicas refreshing at once each set the watermark they reached; the later one stands.
    public func setDashboardWatermark(survey: String, _ watermark: Date) async throws {
        try await client.query("""
            INSERT INTO dashboard_surveys (survey, watermark) VALUES (\(survey), \(watermark.timeIntervalSince1970))
            ON CONFLICT (survey) DO UPDATE SET watermark = GREATEST(dashboard_surveys.watermark, excluded.watermark)
            """, logger: logger)
    }

    private static func dashboardSQL() -> DashboardSQL {
        DashboardSQL(placeholder: { "$\($0)" }, floor: { "FLOOR(\($0))::BIGINT" })
    }

    private static func query(_ text: String, _ sql: DashboardSQL) -> PostgresQuery {
        var bindings = PostgresBindings()
        for value in sql.values {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// Three queries in one repeatable-read transaction, so the counts agree with one another.
    public func dashboardTally(_ query: DashboardQuery) async throws -> DashboardTally {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
            var tally = DashboardTally()
            var sql = Self.dashboardSQL()
            var text = DashboardSQL.days(query, &sql)
            for try await (day, status, count) in try await connection.query(Self.query(text, sql), logger: self.logger)
                .decode((Int, String, Int).self) {
                tally.days.append(DashboardTally.Day(day: day, status: status, count: count))
            }
            sql = Self.dashboardSQL()
            text = DashboardSQL.steps(query, &sql)
            for try await (step, stopped, status, seconds, count) in try await connection.query(Self.query(text, sql), logger: self.logger)
                .decode((String, Bool, String, Int?, Int).self) {
                tally.steps.append(DashboardTally.Step(step: step, stopped: stopped, status: status, seconds: seconds, count: count))
            }
            sql = Self.dashboardSQL()
            text = DashboardSQL.outcomes(query, &sql)
            for try await (key, outcome, bucket, count, minimum, maximum) in try await connection.query(Self.query(text, sql), logger: self.logger)
                .decode((String, String, String?, Int, Double?, Double?).self) {
                tally.outcomes.append(DashboardTally.Outcome(key: key, outcome: outcome, bucket: bucket, count: count, minimum: minimum,
                                                             maximum: maximum))
            }
            return tally
        }
    }

    public func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) async throws -> [String: [Int: Int]] {
        var counts: [String: [Int: Int]] = [:]
        for (key, keyBins) in bins {
            var sql = Self.dashboardSQL()
            let text = DashboardSQL.histogram(query, key: key, bins: keyBins, &sql)
            for try await (bin, count) in try await client.query(Self.query(text, sql), logger: logger).decode((Int, Int).self) {
                counts[key, default: [:]][keyBins.clamped(bin), default: 0] += count
            }
        }
        return counts
    }

    public func dashboardDiscardedRuns(survey: String) async throws -> [Date] {
        var sql = Self.dashboardSQL()
        let text = DashboardSQL.erasures(survey: survey, &sql)
        var began: [Date] = []
        for try await (detail, millis) in try await client.query(Self.query(text, sql), logger: logger).decode((String, Int64?).self) {
            if let date = DiscardedRuns.began(detail: detail, firstEntryMillis: millis) { began.append(date) }
        }
        return began.sorted()
    }
}
