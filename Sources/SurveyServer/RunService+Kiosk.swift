import Foundation
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The end of a kiosk participant's turn that nobody finished.
extension RunService {
    /// Ends the run of a kiosk turn left idle past its deadline, or left behind when the next
    /// participant pressed Start, as the survey's `kioskIdle` says: deleted with its answers
    /// (`discard`, the default), or kept as saved for later without a code anyone has seen
    /// (`save`), so that its answers reach the API and the exports. A run not started yet
    /// (no answer posted) has nothing stored.
    func endAbandonedTurn(_ survey: SurveyPages, session: String, now: Date) async throws {
        guard var record = try await store.activeRecord(session: session, survey: survey.task.identifier) else { return }
        do {
            switch survey.task.kioskIdle ?? .discard {
            case .discard:
                try await store.delete(id: record.id)
                metrics.kioskRunsEnded(.discard)
            case .save:
                guard record.savedAt == nil else { return }
                record.savedAt = now
                record.resume = nil
                record.updatedAt = now
                _ = try await store.update(record)
                metrics.kioskRunsEnded(.save)
            }
        } catch let error as RunStoreError where error.isConflict {
            // Another request moved the run first; the next one that finds it idle ends it.
        }
    }
}
