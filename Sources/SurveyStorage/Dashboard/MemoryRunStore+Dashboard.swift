import Foundation
import SurveyAnalysis

/// The memory store's dashboard facts, counted in Swift as the SQL stores count in SQL.
struct MemoryDashboard {
    var facts: [UUID: (survey: String, facts: RunFacts)] = [:]
    var watermarks: [String: Date] = [:]
}

extension MemoryRunStore {
    /// The facts of a survey's runs that still exist (a deleted run's go with it).
    private func facts(of survey: String) -> [RunFacts] {
        dashboard.facts.values.filter { $0.survey == survey && records[$0.facts.run] != nil }.map(\.facts)
    }

    public func dashboardStaleRuns(survey: String, changedSince: Date, limit: Int) -> [UUID] {
        let stale = records.values.filter { record in
            record.surveyIdentifier == survey && record.updatedAt >= changedSince && dashboard.facts[record.id]?.facts.version != record.version
        }
        return Array(stale.sorted { $0.updatedAt > $1.updatedAt }.prefix(limit).map(\.id))
    }

    public func writeDashboardFacts(_ facts: [RunFacts], survey: String) {
        for fact in facts where records[fact.run] != nil { dashboard.facts[fact.run] = (survey, fact) }
    }

    public func dashboardWatermark(survey: String) -> Date? { dashboard.watermarks[survey] }

    public func setDashboardWatermark(survey: String, _ watermark: Date) { dashboard.watermarks[survey] = watermark }

    public func dashboardTally(_ query: DashboardQuery) -> DashboardTally {
        DashboardTally(facts: facts(of: query.survey), query: query)
    }

    public func dashboardHistograms(_ query: DashboardQuery, bins: [String: HistogramBins]) -> [String: [Int: Int]] {
        var counts: [String: [Int: Int]] = [:]
        for run in facts(of: query.survey) where query.admits(run) {
            for answer in run.answers where answer.outcome == AnswerFact.answered {
                guard let keyBins = bins[answer.key], let number = answer.number else { continue }
                counts[answer.key, default: [:]][keyBins.bin(of: number), default: 0] += 1
            }
        }
        return counts
    }

    public func dashboardDiscardedRuns(survey: String) -> [Date] {
        auditLog.values.compactMap { chain -> Date? in
            guard let erased = chain.last, erased.action == AuditEntry.erasedAction, erased.survey == survey else { return nil }
            return DiscardedRuns.began(detail: erased.detail, firstEntryMillis: chain.first?.atMillis)
        }.sorted()
    }
}
