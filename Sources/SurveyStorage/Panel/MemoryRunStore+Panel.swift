import Foundation
import SurveyCore

extension MemoryRunStore {
    public func allocate(_ request: AllocationRequest, now: Date) -> String {
        let key = [request.survey, request.step, request.stratum].joined(separator: "\u{1F}")
        if let participant = request.participant,
           let earlier = panel.allocations.first(where: { $0.survey == request.survey && $0.step == request.step && $0.participant == participant }) {
            return earlier.arm
        }
        let (arm, rest) = AllocationDraw.next(request.design, pending: panel.pending[key] ?? [])
        panel.pending[key] = rest
        panel.allocations.append(.init(survey: request.survey, step: request.step, stratum: request.stratum, arm: arm, participant: request.participant))
        return arm
    }

    public func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) -> String? {
        var counting: [String] = []
        for quota in quotas {
            let members = panel.quotaMembers[survey + "\u{1F}" + quota.identifier] ?? []
            if members.contains(run) { continue }
            if members.count >= quota.limit { return quota.identifier }
            counting.append(quota.identifier)
        }
        for quota in counting { panel.quotaMembers[survey + "\u{1F}" + quota, default: []].insert(run) }
        return nil
    }

    public func releaseQuotas(survey: String, quotas: [String], run: UUID) {
        for quota in quotas { panel.quotaMembers[survey + "\u{1F}" + quota]?.remove(run) }
    }

    public func quotaCounts(survey: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (key, members) in panel.quotaMembers where key.hasPrefix(survey + "\u{1F}") {
            counts[String(key.dropFirst(survey.count + 1))] = members.count
        }
        return counts
    }

    public func allocationCounts(survey: String) -> [AllocationCount] {
        var counts: [AllocationCount: Int] = [:]
        for entry in panel.allocations where entry.survey == survey {
            counts[AllocationCount(step: entry.step, stratum: entry.stratum, arm: entry.arm, count: 0), default: 0] += 1
        }
        return counts.map { AllocationCount(step: $0.key.step, stratum: $0.key.stratum, arm: $0.key.arm, count: $0.value) }
            .sorted { ($0.step, $0.stratum, $0.arm) < ($1.step, $1.stratum, $1.arm) }
    }
}

/// What a memory store keeps for allocations and quotas.
struct MemoryPanel: Sendable {
    struct Allocation: Sendable {
        var survey: String
        var step: String
        var stratum: String
        var arm: String
        var participant: String?
    }

    var pending: [String: [String]] = [:]
    var allocations: [Allocation] = []
    var quotaMembers: [String: Set<UUID>] = [:]
}
