import Foundation
import SurveyCore
@testable import SurveyStorage

/// What the stores in `Tests/Fixtures/stores/` hold: one of each kind of row a store of the
/// version before the migration ledger wrote, built the same way every time, so that a store
/// migrated forward can be read back and compared with it value by value.
enum StoreBeforeLedger {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func id(_ last: Int) -> UUID {
        UUID(uuidString: String(format: "6F1C2A9E-0000-4000-8000-%012d", last))!
    }

    /// A run of `survey` begun at `start` plus `offset` seconds, with `answers` answered steps.
    static func run(_ last: Int, survey: String = "demo", session: String, answers: Int, offset: Double) -> RunRecord {
        let begun = start.addingTimeInterval(offset)
        let run = TaskRun(taskIdentifier: survey, taskRunUUID: id(last), startDate: begun,
                          visits: [StepVisit(stepIdentifier: "intro", startDate: begun)])
        var record = RunRecord(run: run, surveyIdentifier: survey, sessionID: session, updatedAt: begun, surveyVersion: "3f2a9c")
        for step in 0..<answers {
            SQLiteVisitRowsTests.answered(&record, "q\(step + 1)", value: "answer \(step) — é ✓", at: Double(step + 1))
        }
        return record
    }

    /// The runs: completed, saved with a resume code, made through the API, and never answered.
    static func records() -> [RunRecord] {
        var completed = run(1, session: "session-completed", answers: 3, offset: 0)
        completed.run.finishReason = .completed
        completed.run.endDate = completed.updatedAt
        var saved = run(2, session: "session-saved", answers: 2, offset: 100)
        saved.savedAt = saved.updatedAt
        saved.resume = ResumeTicket(code: "KPQR7MXZ", token: "c2F2ZWQtcnVuLXRva2VuLW9mLTE5Mi1iaXRz", expiresAt: start.addingTimeInterval(86_400 * 30))
        var api = run(3, session: "session-api", answers: 1, offset: 200)
        api.externalID = "P-0017"
        api.returnURL = "https://panel.example/return?study=7&pid=P-0017"
        api.resume = ResumeTicket(code: nil, token: "YXBpLXJ1bi10b2tlbi1vZi0xOTItYml0cy4u", expiresAt: start.addingTimeInterval(86_400 * 7))
        var unanswered = run(4, survey: "other", session: "session-unanswered", answers: 0, offset: 300)
        unanswered.surveyVersion = nil
        return [completed, saved, api, unanswered]
    }

    /// The completion webhook queued with the completed run.
    static let payload = #"{"event":"run.completed","run":"6f1c2a9e-0000-4000-8000-000000000001"}"#
    static let definition = #"{"identifier":"demo","steps":[{"identifier":"intro","type":"instruction"}]}"#
    static let revocation = KioskRevocation(device: "device-7", revokedAt: start.addingTimeInterval(50),
                                            until: Date(timeIntervalSince1970: 4_000_000_000))

    /// Writes every row through `store`, as the store of that version did.
    static func write(to store: any RunStore) async throws {
        for var record in records() {
            let finished = record.run.finishReason
            record.run.finishReason = nil
            var written = try await store.insert(record)
            if finished != nil {
                written.run.finishReason = finished
                _ = try await store.update(written, enqueuing: payload)
            }
        }
        try await store.keepSurveyVersion(survey: "demo", version: "3f2a9c", definition: definition)
        try await store.revokeKioskDevice(revocation)
    }
}

extension StoreBeforeLedger {
    /// The runs as a migrated store must read them: the completed one was written twice.
    static func expected() -> [RunRecord] {
        records().map { record in
            var record = record
            record.version = record.run.isFinished ? 2 : 1
            return record
        }
    }

    /// Every row written before, read back through `store`: the runs with their visits and
    /// tickets, the queued event, the kept survey version and the kiosk revocation.
    static func readBack(_ store: any RunStore) async throws -> [String] {
        var problems: [String] = []
        for expected in expected() {
            let read = try await store.record(id: expected.id)
            if read != expected { problems.append("run \(expected.sessionID): \(String(describing: read))") }
        }
        if let code = records()[1].resume?.code, try await store.record(resumeCode: code)?.id != id(2) {
            problems.append("the resume code")
        }
        if try await store.record(resumeToken: records()[2].resume!.token)?.id != id(3) { problems.append("the API run's token") }
        let listed = try await store.records(matching: RunQuery(survey: "demo", status: "saved"))
        if listed.map(\.id) != [id(2)] { problems.append("the saved runs listed: \(listed.map(\.id))") }
        let events = try await store.claimDueEvents(now: start.addingTimeInterval(3_600), lease: 60, limit: 10)
        if events.map(\.payload) != [payload] || events.first?.runID != id(1) { problems.append("the outbox: \(events)") }
        let versions = try await store.surveyVersions(survey: "demo")
        if versions.map(\.definition) != [definition] || versions.first?.version != "3f2a9c" { problems.append("the survey versions") }
        let revocations = try await store.kioskRevocations(since: start, now: start.addingTimeInterval(100))
        if revocations != [revocation] { problems.append("the kiosk revocations: \(revocations)") }
        return problems
    }
}
