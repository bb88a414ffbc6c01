import Foundation
import PostgresNIO
import SurveyCore

extension PostgresRunStore {
    /// The stratum's row is locked for the draw: replicas take turns, and a block is never
    /// drawn twice or past its end. A participant's earlier arm is found under the same lock.
    public func allocate(_ request: AllocationRequest, now: Date) async throws -> String {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("""
                INSERT INTO allocation_sequences (survey, step, stratum, next_seq, pending)
                VALUES (\(request.survey), \(request.step), \(request.stratum), 0, '[]') ON CONFLICT DO NOTHING
                """, logger: self.logger)
            var seq = 0
            var pending: String?
            for try await (next, text) in try await connection.query("""
                SELECT next_seq, pending FROM allocation_sequences WHERE survey = \(request.survey) AND step = \(request.step)
                AND stratum = \(request.stratum) FOR UPDATE
                """, logger: self.logger).decode((Int, String).self) {
                seq = next
                pending = text
            }
            if let participant = request.participant {
                for try await arm in try await connection.query("""
                    SELECT arm FROM allocations WHERE survey = \(request.survey) AND step = \(request.step) AND participant = \(participant)
                    """, logger: self.logger).decode(String.self) {
                    return arm
                }
            }
            let (arm, rest) = AllocationDraw.next(request.design, pending: AllocationDraw.decode(pending))
            try await connection.query("""
                UPDATE allocation_sequences SET next_seq = \(seq + 1), pending = \(AllocationDraw.encode(rest))
                WHERE survey = \(request.survey) AND step = \(request.step) AND stratum = \(request.stratum)
                """, logger: self.logger)
            try await connection.query("""
                INSERT INTO allocations (survey, step, stratum, seq, arm, participant, run, at)
                VALUES (\(request.survey), \(request.step), \(request.stratum), \(seq), \(arm), \(request.participant), \(request.run),
                        \(now.timeIntervalSince1970))
                """, logger: self.logger)
            return arm
        }
    }

    /// Each quota's row is locked (in a fixed order, so two claims never wait on each other)
    /// while its members are counted and the run added.
    public func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) async throws -> String? {
        let ordered = quotas.sorted { $0.identifier < $1.identifier }
        return try await client.withTransaction(logger: logger) { connection -> String? in
            var counting: [String] = []
            for quota in ordered {
                try await connection.query("""
                    INSERT INTO quota_counts (survey, quota, filled) VALUES (\(survey), \(quota.identifier), 0) ON CONFLICT DO NOTHING
                    """, logger: self.logger)
                var filled = 0
                for try await value in try await connection.query("""
                    SELECT filled FROM quota_counts WHERE survey = \(survey) AND quota = \(quota.identifier) FOR UPDATE
                    """, logger: self.logger).decode(Int.self) { filled = value }
                var counted = false
                for try await _ in try await connection.query("""
                    SELECT 1 FROM quota_members WHERE survey = \(survey) AND quota = \(quota.identifier) AND run = \(run)
                    """, logger: self.logger).decode(Int.self) { counted = true }
                if counted { continue }
                if filled >= quota.limit { return quota.identifier }
                counting.append(quota.identifier)
            }
            for quota in counting {
                try await connection.query("INSERT INTO quota_members (survey, quota, run) VALUES (\(survey), \(quota), \(run))", logger: self.logger)
                try await connection.query("UPDATE quota_counts SET filled = filled + 1 WHERE survey = \(survey) AND quota = \(quota)",
                                           logger: self.logger)
            }
            return nil
        }
    }

    public func releaseQuotas(survey: String, quotas: [String], run: UUID) async throws {
        try await client.withTransaction(logger: logger) { connection in
            for quota in quotas.sorted() {
                let rows = try await connection.query("""
                    DELETE FROM quota_members WHERE survey = \(survey) AND quota = \(quota) AND run = \(run) RETURNING 1
                    """, logger: self.logger).decode(Int.self)
                var removed = 0
                for try await _ in rows { removed += 1 }
                if removed > 0 {
                    try await connection.query("UPDATE quota_counts SET filled = filled - \(removed) WHERE survey = \(survey) AND quota = \(quota)",
                                               logger: self.logger)
                }
            }
        }
    }

    public func quotaCounts(survey: String) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for try await (quota, filled) in try await client.query("SELECT quota, filled FROM quota_counts WHERE survey = \(survey)",
                                                                 logger: logger).decode((String, Int).self) {
            counts[quota] = filled
        }
        return counts
    }

    public func allocationCounts(survey: String) async throws -> [AllocationCount] {
        var counts: [AllocationCount] = []
        for try await (step, stratum, arm, count) in try await client.query("""
            SELECT step, stratum, arm, count(*)::BIGINT FROM allocations WHERE survey = \(survey)
            GROUP BY step, stratum, arm ORDER BY step, stratum, arm
            """, logger: logger).decode((String, String, String, Int).self) {
            counts.append(AllocationCount(step: step, stratum: stratum, arm: arm, count: count))
        }
        return counts
    }
}
