import Foundation
import JSON
import SurveyCore
import SurveyStorage

/// Resuming a saved run, or starting one made through the API, in any browser.
extension RunService {
    /// The resume code and link of the session's run saved for later, while it has them.
    func savedTicket(_ survey: RunnableSurvey, session: String) async throws -> ResumeTicket? {
        guard let record = try await store.activeRecord(session: session, survey: survey.task.identifier),
              record.savedAt != nil, let ticket = record.resume, ticket.code != nil else { return nil }
        return ticket
    }

    /// The run a resume code (normalized) belongs to.
    func savedRun(code: String) async throws -> RunRecord? {
        try await store.record(resumeCode: code)
    }

    /// The run a resume or start link's token belongs to.
    func savedRun(token: String) async throws -> RunRecord? {
        try await store.record(resumeToken: token)
    }

    /// Binds a saved (or API-made) run to the session, to carry on where it stopped; its code
    /// and link then stop working. False when they have expired, the run is finished, or
    /// another request resumed it first.
    func resume(_ record: RunRecord, session: String, now: Date) async throws -> Bool {
        guard let ticket = record.resume, !record.run.isFinished, ticket.expiresAt > now else { return false }
        var resumed = record
        // A run made through the API is claimed by its start link; a saved one resumed by its code or link.
        let claimed = record.sessionID == "unclaimed"
        resumed.audit.pending = [auditEvent(claimed ? "run.claimed" : "run.resumed", on: record, by: .participant(session: session),
                                            detail: .object(["via": .string(claimed ? "startLink" : "resumeCode")]))]
        resumed.sessionID = session
        resumed.savedAt = nil
        resumed.resume = nil
        resumed.updatedAt = now
        do {
            _ = try await store.update(resumed)
        } catch let error as RunStoreError where error.isConflict {
            return false
        }
        return true
    }
}
