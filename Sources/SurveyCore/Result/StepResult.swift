import Foundation
import JSON

/// One step on the path with its question results (ORKStepResult).
public struct StepResult: Sendable, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var results: [QuestionResult]
    /// On a consent review step, the document signature its results sign (ResearchKit writes
    /// them as one ORKConsentSignatureResult).
    public var consentSignature: String?
    /// A repeating form's instances, in order, each its question results; `results` is then
    /// empty, or holds the instance being answered while it is.
    public var instances: [[QuestionResult]]?

    public init(identifier: String, startDate: Date, endDate: Date, results: [QuestionResult]) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.results = results
    }

    public func result(_ identifier: String) -> QuestionResult? {
        results.last { $0.identifier == identifier }
    }
}
