import Foundation

/// Which runs a dashboard counts: one survey's, narrowed by the filters a researcher chose.
public struct DashboardQuery: Sendable, Hashable {
    public var survey: String
    /// First and last day the runs started on (days since 1970 in the survey's time zone), inclusive.
    public var fromDay: Int?
    public var toDay: Int?
    /// `completed`, `saved`, `discarded`, `inProgress`…
    public var status: String?
    /// Labels the runs carry (`RunFacts.labels`), each as name and value: an arm, a URL parameter.
    public var labels: [Label]

    public struct Label: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(survey: String, fromDay: Int? = nil, toDay: Int? = nil, status: String? = nil, labels: [Label] = []) {
        self.survey = survey
        self.fromDay = fromDay
        self.toDay = toDay
        self.status = status
        self.labels = labels
    }

    /// True when the facts of a run pass the filters (the memory store's test; SQL says the same).
    public func admits(_ facts: RunFacts) -> Bool {
        (fromDay.map { facts.day >= $0 } ?? true) && (toDay.map { facts.day <= $0 } ?? true)
            && (status.map { facts.status == $0 } ?? true) && labels.allSatisfy { facts.labels[$0.name] == $0.value }
    }
}

/// What a store counted for a dashboard: grouped rows, each with how many runs (or answers)
/// share it. `DashboardReport` turns them into charts.
public struct DashboardTally: Sendable, Hashable {
    public struct Day: Sendable, Hashable {
        public var day: Int
        public var status: String
        public var count: Int
        public init(day: Int, status: String, count: Int) {
            self.day = day
            self.status = status
            self.count = count
        }
    }

    public struct Step: Sendable, Hashable {
        public var step: String
        public var stopped: Bool
        public var status: String
        /// Whole seconds on the step; nil while it is showing.
        public var seconds: Int?
        public var count: Int
        public init(step: String, stopped: Bool, status: String, seconds: Int?, count: Int) {
            self.step = step
            self.stopped = stopped
            self.status = status
            self.seconds = seconds
            self.count = count
        }
    }

    public struct Outcome: Sendable, Hashable {
        public var key: String
        public var outcome: String
        public var bucket: String?
        public var count: Int
        /// The least and greatest number among the group's answers, when they hold numbers.
        public var minimum: Double?
        public var maximum: Double?
        public init(key: String, outcome: String, bucket: String?, count: Int, minimum: Double? = nil, maximum: Double? = nil) {
            self.key = key
            self.outcome = outcome
            self.bucket = bucket
            self.count = count
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    public var days: [Day]
    public var steps: [Step]
    public var outcomes: [Outcome]

    public init(days: [Day] = [], steps: [Step] = [], outcomes: [Outcome] = []) {
        self.days = days
        self.steps = steps
        self.outcomes = outcomes
    }

    /// The same counts from facts in memory: what the memory store answers, and what the SQL
    /// stores are held to.
    public init(facts: some Sequence<RunFacts>, query: DashboardQuery) {
        var days: [Day: Int] = [:]
        var steps: [Step: Int] = [:]
        var outcomes: [Outcome: (count: Int, minimum: Double?, maximum: Double?)] = [:]
        for run in facts where query.admits(run) {
            days[Day(day: run.day, status: run.status, count: 0), default: 0] += 1
            for step in run.steps {
                steps[Step(step: step.step, stopped: step.stopped, status: run.status, seconds: step.seconds, count: 0), default: 0] += 1
            }
            for answer in run.answers {
                let group = Outcome(key: answer.key, outcome: answer.outcome, bucket: answer.bucket, count: 0)
                var known = outcomes[group] ?? (0, nil, nil)
                known.count += 1
                if let number = answer.number {
                    known.minimum = min(known.minimum ?? number, number)
                    known.maximum = max(known.maximum ?? number, number)
                }
                outcomes[group] = known
            }
        }
        self.days = days.map { Day(day: $0.key.day, status: $0.key.status, count: $0.value) }
        self.steps = steps.map { Step(step: $0.key.step, stopped: $0.key.stopped, status: $0.key.status, seconds: $0.key.seconds, count: $0.value) }
        self.outcomes = outcomes.map {
            Outcome(key: $0.key.key, outcome: $0.key.outcome, bucket: $0.key.bucket, count: $0.value.count, minimum: $0.value.minimum,
                    maximum: $0.value.maximum)
        }
    }

    /// Adds the runs discarded before they could be kept, each on the day it began, as
    /// `discarded`: only the runs chart can count them (their steps and answers are gone), and
    /// only while no arm or URL parameter is asked for (those went with them).
    public mutating func addDiscarded(began: [Date], query: DashboardQuery, timeZone: TimeZone) {
        guard query.labels.isEmpty, query.status.map({ $0 == Self.discarded }) ?? true else { return }
        var counts: [Int: Int] = [:]
        for date in began {
            let day = DashboardQuestion.dayNumber(of: date, in: timeZone)
            if query.fromDay.map({ day >= $0 }) ?? true, query.toDay.map({ day <= $0 }) ?? true { counts[day, default: 0] += 1 }
        }
        days += counts.map { Day(day: $0.key, status: Self.discarded, count: $0.value) }
    }

    public static let discarded = "discarded"

    /// Groups in one order, so two tallies that count the same compare equal.
    public var sorted: DashboardTally {
        DashboardTally(days: days.sorted { ($0.day, $0.status) < ($1.day, $1.status) },
                       steps: steps.sorted { ($0.step, $0.stopped ? 1 : 0, $0.status, $0.seconds ?? -1) < ($1.step, $1.stopped ? 1 : 0, $1.status, $1.seconds ?? -1) },
                       outcomes: outcomes.sorted { ($0.key, $0.outcome, $0.bucket ?? "") < ($1.key, $1.outcome, $1.bucket ?? "") })
    }
}

/// Equal-width bins of a histogram: bin `i` holds `origin + i·width ..< origin + (i+1)·width`,
/// and the greatest value counts in the last.
public struct HistogramBins: Sendable, Hashable {
    public var origin: Double
    public var width: Double
    public var count: Int

    public init(origin: Double, width: Double, count: Int) {
        self.origin = origin
        self.width = width
        self.count = count
    }

    /// The bin a number falls in. A number on an edge belongs to the bin it starts, whatever
    /// the division's rounding (0.6 / 0.05 is 11.999…): a nudge of 10⁻⁹ of a bin first.
    public func bin(of number: Double) -> Int {
        clamped(Int(((number - origin) / width + Self.nudge).rounded(.down)))
    }

    public static let nudge = 1e-9

    /// A bin as a store computed it, within the bins (a value at the very top counts in the last).
    public func clamped(_ bin: Int) -> Int { min(max(bin, 0), count - 1) }

    /// Bins for numbers between `minimum` and `maximum` as a question's tally calls for: whole
    /// numbers (`integral`) one to a bar when there are 25 or fewer, otherwise about 20 bins of
    /// a round width (1, 2 or 5 times a power of ten); days in whole weeks from a Monday (at
    /// most 26 bars); times of day by the hour.
    public static func make(_ tally: DashboardQuestion.Tally, minimum: Double, maximum: Double, integral: Bool = false) -> HistogramBins {
        // Numbers too far apart to divide: one bar. One number: one bar from it, a day's week, a time's hour.
        let span = maximum - minimum
        guard span.isFinite, minimum.isFinite else { return HistogramBins(origin: minimum.isFinite ? minimum : 0, width: 1, count: 1) }
        if span == 0, case .numbers = tally { return HistogramBins(origin: minimum, width: 1, count: 1) }
        switch tally {
        case .days:
            let first = Int(minimum.rounded(.down))
            let monday = first - ((first + 3) % 7 + 7) % 7
            let weeks = (Int(maximum.rounded(.down)) - monday) / 7 + 1
            let perBar = (weeks + 25) / 26
            return HistogramBins(origin: Double(monday), width: Double(7 * perBar), count: (weeks + perBar - 1) / perBar)
        case .minutes:
            let origin = (minimum / 60).rounded(.down) * 60
            return HistogramBins(origin: origin, width: 60, count: Int((maximum - origin) / 60) + 1)
        default:
            if integral, minimum == minimum.rounded(), maximum == maximum.rounded(), maximum - minimum < 25 {
                return HistogramBins(origin: minimum, width: 1, count: Int(maximum - minimum) + 1)
            }
            let raw = (maximum - minimum) / 20
            let power = pow(10, (log10(raw)).rounded(.down))
            let width = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
            let origin = (minimum / width).rounded(.down) * width
            return HistogramBins(origin: origin, width: width, count: Int(((maximum - origin) / width).rounded(.down)) + 1)
        }
    }
}
