import Foundation
import JSON
import SurveyCore

/// How much work a search for paths may do before it stops: a number of units of work and,
/// for a page that someone is waiting for, a deadline.
///
/// A unit is one path extended, one condition handed to the solver, one step walked by the
/// navigator while a witness is checked, or one step visited while the graph alone is read.
/// The work of a search grows faster than the survey (each of n steps can need a path of n
/// conditions), so both bounds are needed: the units make the result the same on every
/// machine for a survey that fits, the deadline keeps a slow machine from holding a page.
public struct PathBudget: Sendable, Hashable {
    /// The units of work allowed.
    public var work: Int
    /// The longest the search may take, or nil for no deadline.
    public var time: Duration?

    public init(work: Int, time: Duration?) {
        self.work = work
        self.time = time
    }

    /// For a page of the preview: a few hundred steps of ordinary branching within two seconds.
    public static let page = PathBudget(work: 3_000_000, time: .seconds(2))

    /// For a command run by hand (`survey simulate --answers-for`): far more work, no deadline,
    /// but still an end.
    public static let command = PathBudget(work: 200_000_000, time: nil)
}

/// The budget of one computation as it is spent. Not shared between threads: one search owns it.
final class PathMeter {
    let limit: Int
    let deadline: ContinuousClock.Instant?
    /// The units spent so far.
    private(set) var spent = 0
    /// True once the limit or the deadline has been passed; the search then stops.
    private(set) var stopped = false
    /// Units spent since the clock was last read.
    private var sinceClock = 0

    init(_ budget: PathBudget) {
        limit = budget.work
        deadline = budget.time.map { ContinuousClock.now.advanced(by: $0) }
    }

    /// Spends `units`; false when the budget is gone (and from then on).
    @discardableResult
    func spend(_ units: Int = 1) -> Bool {
        guard !stopped else { return false }
        spent += units
        sinceClock += units
        if spent > limit {
            stopped = true
        } else if let deadline, sinceClock >= 256 {
            sinceClock = 0
            if ContinuousClock.now >= deadline { stopped = true }
        }
        return !stopped
    }
}
