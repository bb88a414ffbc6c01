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
    /// The subject and encounter the FHIR exports carry, for runs an EHR started.
    public var fhirContext: FHIRRunContext?

    public init(run: TaskRun, status: String, participant: String?, updatedAt: Date, surveyVersion: String? = nil,
                fhirContext: FHIRRunContext? = nil) {
        self.surveyVersion = surveyVersion
        self.fhirContext = fhirContext
        self.run = run
        self.status = status
        self.participant = participant
        self.updatedAt = updatedAt
    }
}
