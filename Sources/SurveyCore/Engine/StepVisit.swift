import Foundation
import JSON

/// One visit of a step: when it was shown, which page of a form is showing, and the
/// answers saved so far.
public struct StepVisit: Sendable, Hashable, Codable {
    public var stepIdentifier: String
    public var startDate: Date
    public var endDate: Date?
    /// The page of a form that is showing (forms split where an item depends on one above it).
    public var page: Int
    public var results: [QuestionResult]
    /// True once the whole step was submitted (Next, or Skip).
    public var isAnswered: Bool

    public init(stepIdentifier: String, startDate: Date, page: Int = 0, results: [QuestionResult] = [], isAnswered: Bool = false) {
        self.stepIdentifier = stepIdentifier
        self.startDate = startDate
        self.page = page
        self.results = results
        self.isAnswered = isAnswered
    }

    public func result(_ identifier: String) -> QuestionResult? {
        results.first { $0.identifier == identifier }
    }
}
