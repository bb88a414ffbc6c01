import Foundation
import NIOCore
import Hummingbird

/// What a webhook posts for a completed run.
public enum WebhookFormat: String, Sendable, CaseIterable {
    /// `{"event": "run.completed", "run", "survey", "participantId", "result"}`.
    case json
    /// The run as a FHIR R4 QuestionnaireResponse, for an EHR.
    case fhir
    /// A FHIR transaction Bundle: the QuestionnaireResponse and the Observations extracted from it.
    case fhirTransaction = "fhir-transaction"
}
