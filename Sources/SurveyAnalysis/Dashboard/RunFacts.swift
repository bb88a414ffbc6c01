import Foundation

/// What the dashboard counts of one run, as rows a store can group in SQL: the run's day and
/// status, its labels (arms and URL parameters), a row per step on its final path, and a row
/// per question (and per choice ticked). Derived from the run by `FactReader`, kept by the
/// store beside the run, and replaced whenever the run's version moves on.
public struct RunFacts: Sendable, Hashable {
    public var run: UUID
    /// The store's version of the run the facts were read from.
    public var version: Int
    /// The day the run started, in the survey's time zone, as days since 1970-01-01.
    public var day: Int
    /// `completed`, `saved`, `discarded`, `inProgress`… (`RunRecord.status`).
    public var status: String
    /// `arm:STEP` and `parameter:NAME`, with the arm or the value.
    public var labels: [String: String]
    public var steps: [StepFact]
    public var answers: [AnswerFact]

    public init(run: UUID, version: Int, day: Int, status: String, labels: [String: String] = [:], steps: [StepFact] = [],
                answers: [AnswerFact] = []) {
        self.run = run
        self.version = version
        self.day = day
        self.status = status
        self.labels = labels
        self.steps = steps
        self.answers = answers
    }

    public static func armLabel(_ step: String) -> String { "arm:" + step }
    public static func parameterLabel(_ name: String) -> String { "parameter:" + name }
}

/// One step on a run's final path.
public struct StepFact: Sendable, Hashable {
    public var step: String
    /// Whole seconds from the step's page shown to its answer, on the path's last visit to it;
    /// nil while the step is still showing.
    public var seconds: Int?
    /// True for the step a run that has not completed stopped at.
    public var stopped: Bool

    public init(step: String, seconds: Int?, stopped: Bool) {
        self.step = step
        self.seconds = seconds
        self.stopped = stopped
    }
}

/// One question of a run: answered (with its value where the dashboard draws one), one of
/// the export's missing reasons, or a choice ticked in a multiple choice answer.
public struct AnswerFact: Sendable, Hashable {
    /// The question's key (`DashboardQuestion.key`).
    public var key: String
    /// `answered`, `chosen` (one row per choice ticked, beside the answer's row), or a
    /// `MissingReason`'s raw value.
    public var outcome: String
    /// The choice, or the combination of a value picker's values, as the form carries it.
    public var bucket: String?
    /// The number, day (since 1970) or minute of the day a numeric, date or time answer holds.
    public var number: Double?

    public init(key: String, outcome: String, bucket: String? = nil, number: Double? = nil) {
        self.key = key
        self.outcome = outcome
        self.bucket = bucket
        self.number = number
    }

    public static let answered = "answered"
    public static let chosen = "chosen"
}
