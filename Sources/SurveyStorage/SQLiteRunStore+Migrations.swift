import Foundation
import GRDB
import SurveyCore

/// The schema: GRDB's migrator applies, once each and in order, the migrations a file has not had.
extension SQLiteRunStore {
    /// Applies the migrations the file has not had yet.
    public func migrate() throws {
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-runs") { db in
            try db.create(table: "runs") { table in
                table.primaryKey("id", .text)
                table.column("survey", .text).notNull()
                table.column("session", .text).notNull()
                table.column("finished", .boolean).notNull()
                table.column("finishReason", .text)
                table.column("version", .integer).notNull()
                table.column("startedAt", .double).notNull()
                table.column("updatedAt", .double).notNull()
                table.column("state", .blob).notNull()
            }
            try db.create(index: "runs_by_session", on: "runs", columns: ["session", "survey", "finished", "updatedAt"])
        }
        migrator.registerMigration("v2-resume-and-api") { db in
            try db.alter(table: "runs") { table in
                table.add(column: "savedAt", .double)
                table.add(column: "resumeCode", .text)
                table.add(column: "resumeToken", .text)
                table.add(column: "resumeExpiresAt", .double)
                table.add(column: "externalID", .text)
                table.add(column: "returnURL", .text)
            }
            try db.create(index: "runs_by_resume_code", on: "runs", columns: ["resumeCode"], unique: true)
            try db.create(index: "runs_by_resume_token", on: "runs", columns: ["resumeToken"], unique: true)
            try db.create(index: "runs_by_survey", on: "runs", columns: ["survey", "updatedAt"])
        }
        migrator.registerMigration("v3-outbox") { db in
            try db.create(table: "outbox") { table in
                table.primaryKey("id", .text)
                table.column("runID", .text).notNull()
                table.column("payload", .text).notNull()
                table.column("attempts", .integer).notNull()
                table.column("nextAttemptAt", .double).notNull()
            }
            try db.create(index: "outbox_by_due", on: "outbox", columns: ["nextAttemptAt"])
        }
        migrator.registerMigration("v4-visit-rows") { db in
            try db.create(table: "visits", options: [.withoutRowID]) { table in
                table.column("run", .text).notNull().references("runs", column: "id", onDelete: .cascade)
                table.column("idx", .integer).notNull()
                table.column("data", .blob).notNull()
                table.primaryKey(["run", "idx"])
            }
            // Runs written before: their whole state becomes a header and visit rows.
            let rows = try Row.fetchAll(db, sql: "SELECT id, state FROM runs")
            for row in rows {
                let run = try Self.decoder.decode(TaskRun.self, from: row["state"] as Data)
                try Self.writeVisits(db, id: row["id"], encoded: try Self.encodeVisits(run.visits, from: 0), from: 0,
                                     count: run.visits.count, previousCount: 0)
                try db.execute(sql: "UPDATE runs SET state = ? WHERE id = ?", arguments: [try Self.header(run), row["id"] as String])
            }
        }
        migrator.registerMigration("v5-unanswered") { db in
            // Runs written before are taken as answered, so none is deleted by mistake.
            try db.alter(table: "runs") { table in
                table.add(column: "unanswered", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "runs_unanswered", on: "runs", columns: ["updatedAt"], condition: Column("unanswered") == true)
        }
        migrator.registerMigration("v6-survey-versions") { db in
            try db.alter(table: "runs") { table in
                table.add(column: "surveyVersion", .text)
            }
            try db.create(table: "surveyVersions", options: [.withoutRowID]) { table in
                table.column("survey", .text).notNull()
                table.column("version", .text).notNull()
                table.column("definition", .text).notNull()
                table.column("keptAt", .double).notNull()
                table.primaryKey(["survey", "version"])
            }
            // Exports page through a survey's runs in identifier order.
            try db.create(index: "runs_by_survey_id", on: "runs", columns: ["survey", "id"])
        }
        migrator.registerMigration("v7-kiosk-revocations") { db in
            try db.create(table: "kioskRevocations", options: [.withoutRowID]) { table in
                table.column("device", .text).notNull().primaryKey()
                table.column("revokedAt", .double).notNull()
                table.column("until", .double).notNull()
            }
            try db.create(index: "kioskRevocations_by_time", on: "kioskRevocations", columns: ["revokedAt"])
        }
        return migrator
    }
}
