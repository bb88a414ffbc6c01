import Foundation
import JSON
import SurveyCore
import SurveyStorage

/// The end of a kiosk participant's turn that nobody finished.
extension RunService {
    /// What became of an abandoned turn's run.
    enum TurnEnding: Equatable {
        case ended
        /// No run of the turn's is stored (nothing was posted): nothing to end.
        case nothingStored
        /// The run changed after `idleSince` (through another replica): left alone.
        case activeElsewhere(lastChange: Date)
    }

    /// Ends the run of a kiosk turn left idle past its deadline, or left behind when the next
    /// participant pressed Start, as the survey's `kioskIdle` says: deleted with its answers
    /// (`discard`, the default), or kept as saved for later without a code anyone has seen
    /// (`save`), so that its answers reach the API and the exports. A run not started yet
    /// (no answer posted) has nothing stored. With `idleSince`, a run changed after it is left
    /// alone (the server's sweep, which sees only its own requests).
    @discardableResult
    func endAbandonedTurn(_ survey: RunnableSurvey, session: String, now: Date, idleSince: Date? = nil) async throws -> TurnEnding {
        guard var record = try await store.activeRecord(session: session, survey: survey.task.identifier) else { return .nothingStored }
        if let idleSince, record.updatedAt > idleSince { return .activeElsewhere(lastChange: record.updatedAt) }
        do {
            switch survey.task.kioskIdle ?? .discard {
            case .discard:
                try await store.delete(id: record.id, erasure: .erasure(reason: "kioskIdle", by: .system("kiosk"), at: now))
                metrics.kioskRunsEnded(.discard)
            case .save:
                guard record.savedAt == nil else { return .ended }
                record.savedAt = now
                record.resume = nil
                record.updatedAt = now
                record.audit.pending = [auditEvent("run.saved", on: record, by: .system("kiosk"), detail: .object(["reason": .string("kioskIdle")]))]
                _ = try await store.update(record)
                metrics.kioskRunsEnded(.save)
            }
        } catch let error as RunStoreError where error.isConflict {
            // Another request moved the run first; the next one that finds it idle ends it.
        }
        return .ended
    }

    /// Unbinds a finished or saved run from its kiosk turn's session once its end page has been
    /// shown, so that the turn's cookie, copied or replayed, finds nothing on any replica. A
    /// saved run is still resumed with its code, which binds it to the resuming session.
    func detachFromTurn(_ record: RunRecord) async throws {
        var detached = record
        detached.sessionID = "ended-" + SessionSigner.newSessionID()
        detached.audit.pending = [auditEvent("kiosk.turnEnded", on: record, by: .system("kiosk"))]
        do {
            _ = try await store.update(detached)
        } catch let error as RunStoreError where error.isConflict {
            // Changed meanwhile (resumed elsewhere): it is no longer the turn's anyway.
        }
    }
}
