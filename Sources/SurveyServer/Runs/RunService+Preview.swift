import Foundation
import SurveyCore
import SurveyStorage

/// The preview's runs, which live in a store in memory of their own (`PreviewRunStore`, which
/// keeps the latest hundred of each survey).
extension RunService {
    /// Makes `run` the session's run of the survey, in place of any it had: a jump to a step.
    func place(_ run: TaskRun, of survey: RunnableSurvey, session: String, now: Date) async throws {
        if let old = try await store.activeRecord(session: session, survey: survey.task.identifier) {
            try await store.delete(id: old.id, erasure: .erasure(reason: "previewReplaced", by: .system("preview"), at: now))
        }
        _ = try await store.insert(RunRecord(run: run, surveyIdentifier: survey.task.identifier, sessionID: session, version: 0,
                                             updatedAt: now))
    }

    /// Opens a finished preview run again at its visit `index`, so an answer of a run that
    /// ended can still be changed: the visits after it leave the run, which stands at it with
    /// its answers kept. False when the session has a run in progress or no finished run that
    /// reaches that visit.
    func reopen(_ survey: RunnableSurvey, session: String, at index: Int, now: Date) async throws -> Bool {
        guard try await store.activeRecord(session: session, survey: survey.task.identifier) == nil,
              let record = try await store.lastFinishedRecord(session: session, survey: survey.task.identifier),
              index >= 0, index < record.run.visits.count - 1 else { return false }
        var run = record.run
        run.visits.removeSubrange((index + 1)...)
        run.cursor = index
        run.finishReason = nil
        run.endDate = nil
        run.visits[index].page = 0
        run.visits[index].endDate = nil
        run.visits[index].isAnswered = false
        try await store.delete(id: record.id, erasure: .erasure(reason: "previewReopened", by: .system("preview"), at: now))
        try await place(run, of: survey, session: session, now: now)
        return true
    }
}
