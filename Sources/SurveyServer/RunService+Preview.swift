import Foundation
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The preview's runs, which live in a store in memory of their own.
extension RunService {
    /// Makes `run` the session's run of the survey, in place of any it had: a jump to a step.
    func place(_ run: TaskRun, of survey: SurveyPages, session: String, now: Date) async throws {
        if let old = try await store.activeRecord(session: session, survey: survey.task.identifier) {
            try await store.delete(id: old.id)
        }
        _ = try await store.insert(RunRecord(run: run, surveyIdentifier: survey.task.identifier, sessionID: session, version: 0,
                                             updatedAt: now))
    }
}
