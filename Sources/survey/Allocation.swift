import ArgumentParser
import Foundation
import SurveyServer
import SurveyStorage

/// `survey allocation SURVEY`: how many runs each arm of each allocation step has, per stratum,
/// with the gap between the largest and smallest arm, and each quota's count.
struct Allocation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report the balance of a survey's allocation steps per stratum, and its quota counts.",
        discussion: """
            Arms are counted as they were drawn, whether or not the run went on to finish. With \
            permuted blocks each finished block is exactly balanced, so a stratum's gap is at \
            most what one unfinished block leaves.
            """
    )

    @Argument(help: "The survey's identifier.")
    var survey: String

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let settings = try readSettings(storeOptions.given)
        let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(storeSettings: settings) }
        try Audit.requireStore(configuration)
        let survey = survey
        try await usingStore(configuration) { store in
            let counts = try await store.allocationCounts(survey: survey)
            let quotas = try await store.quotaCounts(survey: survey)
            print(Self.report(counts, quotas: quotas, survey: survey), terminator: "")
        }
    }

    static func report(_ counts: [AllocationCount], quotas: [String: Int], survey: String) -> String {
        var lines: [String] = []
        if counts.isEmpty { lines.append("No run of \(survey) has been allocated.") }
        for step in Array(Set(counts.map(\.step))).sorted() {
            lines.append("Allocation step \(step):")
            let rows = counts.filter { $0.step == step }
            for stratum in Array(Set(rows.map(\.stratum))).sorted() {
                let arms = rows.filter { $0.stratum == stratum }
                let total = arms.reduce(0) { $0 + $1.count }
                let gap = (arms.map(\.count).max() ?? 0) - (arms.map(\.count).min() ?? 0)
                let shares = arms.map { "\($0.arm) \($0.count)" }.joined(separator: ", ")
                lines.append("  \(stratum.isEmpty ? "(one stratum)" : stratum): \(shares); \(total) in all, gap \(gap)")
            }
        }
        for (quota, count) in quotas.sorted(by: { $0.key < $1.key }) { lines.append("Quota \(quota): \(count) completed") }
        return lines.joined(separator: "\n") + "\n"
    }
}
