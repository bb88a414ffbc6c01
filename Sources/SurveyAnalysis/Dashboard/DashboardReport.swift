import Foundation
import SurveyCore

/// A dashboard's figures, ready to draw: runs by status over time, the funnel of steps, the
/// time taken on each, and every question's answers and missing reasons. Built from what a
/// store counted (`DashboardTally`) and the survey, without a run in memory.
public struct DashboardReport: Sendable {
    /// The statuses in the order the dashboard lists them.
    public static let statusOrder = ["completed", "inProgress", "saved", "discarded", "declined", "screenedOut", "quotaFull",
                                     "earlyTermination", "failed"]

    /// Runs started in one period (a day, or a week from its Monday), by status.
    public struct Period: Sendable, Hashable {
        public var firstDay: Int
        public var counts: [String: Int]
        public var total: Int { counts.values.reduce(0, +) }
    }

    public struct FunnelStep: Sendable, Hashable {
        public var step: String
        public var reached: Int
        /// Runs that stopped at the step without completing, by status.
        public var stopped: [String: Int]
    }

    public struct StepTime: Sendable, Hashable {
        public var step: String
        /// Visits timed (a step still showing has no time yet).
        public var count: Int
        public var median: Int
        public var ninetieth: Int
    }

    public struct Question: Sendable {
        public var question: DashboardQuestion
        public var answered: Int
        public var missing: [MissingReason: Int]
        /// Answers (or, for multiple choice, ticks) by choice as the form carries it.
        public var choices: [String: Int]
        /// Numbers, days or times of day in bins; nil when the question has none.
        public var histogram: (bins: HistogramBins, counts: [Int])?
    }

    public var statuses: [String]
    /// True when periods are weeks (the runs span more than 62 days).
    public var byWeek: Bool
    public var periods: [Period]
    public var totals: [String: Int]
    public var funnel: [FunnelStep]
    public var times: [StepTime]
    public var questions: [Question]

    public var runCount: Int { totals.values.reduce(0, +) }

    /// The bins each numeric question's histogram takes, from the tally's least and greatest
    /// answers: a store counts the histograms with them in a second query.
    public static func bins(for tally: DashboardTally, questions: [DashboardQuestion]) -> [String: HistogramBins] {
        var range: [String: (Double, Double)] = [:]
        for group in tally.outcomes where group.outcome == AnswerFact.answered {
            guard let low = group.minimum, let high = group.maximum else { continue }
            let known = range[group.key] ?? (low, high)
            range[group.key] = (min(known.0, low), max(known.1, high))
        }
        var bins: [String: HistogramBins] = [:]
        for question in questions {
            switch question.tally {
            case .numbers, .days, .minutes:
                guard var (low, high) = range[question.key] else { continue }
                if let bounds = question.bounds { (low, high) = (min(low, bounds.minimum), max(high, bounds.maximum)) }
                bins[question.key] = HistogramBins.make(question.tally, minimum: low, maximum: high, integral: question.isIntegral)
                // A scale's positions, one to a bar, when the answers keep to them.
                if case .scale(let scale) = question.format, let step = scale.step, step > 1, low == Double(scale.minimum),
                   high == Double(scale.maximum), (scale.maximum - scale.minimum) / step < 25 {
                    bins[question.key] = HistogramBins(origin: low, width: Double(step), count: (scale.maximum - scale.minimum) / step + 1)
                }
            case .choices, .counted: break
            }
        }
        return bins
    }

    /// - Parameter histograms: per question, the answers counted in each bin of `bins`.
    public init(task: SurveyTask, tally: DashboardTally, bins: [String: HistogramBins], histograms: [String: [Int: Int]]) {
        var totals: [String: Int] = [:]
        var byDay: [Int: [String: Int]] = [:]
        for group in tally.days {
            totals[group.status, default: 0] += group.count
            byDay[group.day, default: [:]][group.status, default: 0] += group.count
        }
        self.totals = totals
        statuses = Self.statusOrder.filter { totals[$0] != nil } + totals.keys.filter { !Self.statusOrder.contains($0) }.sorted()
        let first = byDay.keys.min() ?? 0
        let last = byDay.keys.max() ?? -1
        byWeek = last - first > 62
        var periods: [Period] = []
        if last >= first {
            let start = byWeek ? first - ((first + 3) % 7 + 7) % 7 : first
            let length = byWeek ? 7 : 1
            for periodStart in stride(from: start, through: last, by: length) {
                var counts: [String: Int] = [:]
                for day in periodStart..<(periodStart + length) {
                    for (status, count) in byDay[day] ?? [:] { counts[status, default: 0] += count }
                }
                periods.append(Period(firstDay: periodStart, counts: counts))
            }
        }
        self.periods = periods

        var reached: [String: Int] = [:]
        var stopped: [String: [String: Int]] = [:]
        var seconds: [String: [Int: Int]] = [:]
        for group in tally.steps {
            reached[group.step, default: 0] += group.count
            if group.stopped { stopped[group.step, default: [:]][group.status, default: 0] += group.count }
            if let time = group.seconds { seconds[group.step, default: [:]][time, default: 0] += group.count }
        }
        funnel = task.steps.map { FunnelStep(step: $0.identifier, reached: reached[$0.identifier] ?? 0, stopped: stopped[$0.identifier] ?? [:]) }
        times = task.steps.compactMap { step in
            guard let counts = seconds[step.identifier], !counts.isEmpty else { return nil }
            let count = counts.values.reduce(0, +)
            return StepTime(step: step.identifier, count: count, median: Self.percentile(0.5, of: counts, count: count),
                            ninetieth: Self.percentile(0.9, of: counts, count: count))
        }

        var perKey: [String: [DashboardTally.Outcome]] = [:]
        for group in tally.outcomes { perKey[group.key, default: []].append(group) }
        questions = DashboardQuestion.all(in: task).map { question in
            var row = Question(question: question, answered: 0, missing: [:], choices: [:], histogram: nil)
            for group in perKey[question.key] ?? [] {
                if group.outcome == AnswerFact.answered {
                    row.answered += group.count
                    if let bucket = group.bucket { row.choices[bucket, default: 0] += group.count }
                } else if group.outcome == AnswerFact.chosen, let bucket = group.bucket {
                    row.choices[bucket, default: 0] += group.count
                } else if let reason = MissingReason(rawValue: group.outcome) {
                    row.missing[reason, default: 0] += group.count
                }
            }
            if let bins = bins[question.key] {
                let counted = histograms[question.key] ?? [:]
                row.histogram = (bins, (0..<bins.count).map { counted[$0] ?? 0 })
            }
            return row
        }
    }

    /// The nearest-rank percentile of values given as value → how many.
    static func percentile(_ fraction: Double, of counts: [Int: Int], count: Int) -> Int {
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for value in counts.keys.sorted() {
            seen += counts[value]!
            if seen >= rank { return value }
        }
        return counts.keys.max() ?? 0
    }
}
