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
    /// A repeating form's saved instances, each its answers; `results` holds the one being answered.
    public var instances: [[QuestionResult]]?
    /// The instance being answered (an index into `instances`, or their count for a new one);
    /// nil while the list of instances shows.
    public var instance: Int?
    /// The instance whose removal waits for the participant to confirm it.
    public var removing: Int?
    /// When the instance being answered was opened: its answers' start.
    public var instanceStart: Date?

    public init(stepIdentifier: String, startDate: Date, page: Int = 0, results: [QuestionResult] = [], isAnswered: Bool = false) {
        self.stepIdentifier = stepIdentifier
        self.startDate = startDate
        self.page = page
        self.results = results
        self.isAnswered = isAnswered
    }

    /// Where a repeating form's visit stands.
    public var repeatPlace: RepeatPlace {
        if let removing { return .removing(removing) }
        if let instance { return .instance(instance) }
        return .list
    }

    public var instanceCount: Int { instances?.count ?? 0 }

    /// When the answers being given on this visit began: the instance's opening in a repeating
    /// form, else the visit's start.
    public var answerStart: Date { instanceStart ?? startDate }

    public func result(_ identifier: String) -> QuestionResult? {
        results.first { $0.identifier == identifier }
    }
}
