import Foundation
import SurveyCore

/// A stored run as the exports read it: the run and what the store knows of it.
public struct ExportedRun: Sendable {
    public var run: TaskRun
    /// `completed`, `saved`, `discarded`, `inProgress`…
    public var status: String
    /// The researcher's identifier for the participant, for runs made through the API.
    public var participant: String?
    /// When the run was last written: the end of a run that has no end date.
    public var updatedAt: Date
    /// The version of the survey the run was made with, when the store knows it.
    public var surveyVersion: String?

    public init(run: TaskRun, status: String, participant: String?, updatedAt: Date, surveyVersion: String? = nil) {
        self.surveyVersion = surveyVersion
        self.run = run
        self.status = status
        self.participant = participant
        self.updatedAt = updatedAt
    }
}
