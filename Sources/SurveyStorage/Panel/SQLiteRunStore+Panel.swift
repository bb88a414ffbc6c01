import Foundation
import GRDB
import SurveyCore

extension SQLiteRunStore {
    /// SQLite has one writer: the sequence is read and moved on inside one write.
    public func allocate(_ request: AllocationRequest, now: Date) async throws -> String {
        try await committer.write { db in
            if let participant = request.participant,
               let arm = try String.fetchOne(db, sql: "SELECT arm FROM allocations WHERE survey = ? AND step = ? AND participant = ?",
                                             arguments: [request.survey, request.step, participant]) {
                return arm
            }
            let row = try Row.fetchOne(db, sql: "SELECT next_seq, pending FROM allocation_sequences WHERE survey = ? AND step = ? AND stratum = ?",
                                       arguments: [request.survey, request.step, request.stratum])
            let seq: Int = row?["next_seq"] ?? 0
            let (arm, pending) = AllocationDraw.next(request.design, pending: AllocationDraw.decode(row?["pending"]))
            try db.execute(sql: """
                INSERT INTO allocation_sequences (survey, step, stratum, next_seq, pending) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (survey, step, stratum) DO UPDATE SET next_seq = excluded.next_seq, pending = excluded.pending
                """, arguments: [request.survey, request.step, request.stratum, seq + 1, AllocationDraw.encode(pending)])
            try db.execute(sql: """
                INSERT INTO allocations (survey, step, stratum, seq, arm, participant, run, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [request.survey, request.step, request.stratum, seq, arm, request.participant,
                                 request.run.uuidString.lowercased(), now.timeIntervalSince1970])
            return arm
        }
    }

    public func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) async throws -> String? {
        let id = run.uuidString.lowercased()
        return try await committer.write { db -> String? in
            var counting: [String] = []
            for quota in quotas {
                let counted = try Bool.fetchOne(db, sql: "SELECT 1 FROM quota_members WHERE survey = ? AND quota = ? AND run = ?",
                                                arguments: [survey, quota.identifier, id]) ?? false
                if counted { continue }
                let filled = try Int.fetchOne(db, sql: "SELECT filled FROM quota_counts WHERE survey = ? AND quota = ?",
                                              arguments: [survey, quota.identifier]) ?? 0
                if filled >= quota.limit { return quota.identifier }
                counting.append(quota.identifier)
            }
            for quota in counting {
                try db.execute(sql: "INSERT INTO quota_members (survey, quota, run) VALUES (?, ?, ?)", arguments: [survey, quota, id])
                try db.execute(sql: """
                    INSERT INTO quota_counts (survey, quota, filled) VALUES (?, ?, 1)
                    ON CONFLICT (survey, quota) DO UPDATE SET filled = filled + 1
                    """, arguments: [survey, quota])
            }
            return nil
        }
    }

    public func releaseQuotas(survey: String, quotas: [String], run: UUID) async throws {
        let id = run.uuidString.lowercased()
        try await committer.write { db in
            for quota in quotas {
                try db.execute(sql: "DELETE FROM quota_members WHERE survey = ? AND quota = ? AND run = ?", arguments: [survey, quota, id])
                if db.changesCount > 0 {
                    try db.execute(sql: "UPDATE quota_counts SET filled = filled - 1 WHERE survey = ? AND quota = ?", arguments: [survey, quota])
                }
            }
        }
    }

    public func quotaCounts(survey: String) async throws -> [String: Int] {
        try await pool.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT quota, filled FROM quota_counts WHERE survey = ?",
                                        arguments: [survey]) {
                counts[row["quota"]] = row["filled"]
            }
            return counts
        }
    }

    public func allocationCounts(survey: String) async throws -> [AllocationCount] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT step, stratum, arm, count(*) AS n FROM allocations WHERE survey = ? GROUP BY step, stratum, arm ORDER BY step, stratum, arm
                """, arguments: [survey]).map { AllocationCount(step: $0["step"], stratum: $0["stratum"], arm: $0["arm"], count: $0["n"]) }
        }
    }
}
