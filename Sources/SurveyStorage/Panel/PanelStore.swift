import Foundation
import SurveyCore

/// What a store keeps for panels and labs: each allocation step's sequence of arms per stratum
/// (and the arm each panel participant got), and each quota's count of completed runs. Both
/// are changed in one transaction under a lock on their row, so replicas sharing a database
/// never draw past a block or fill a quota past its limit.
public protocol PanelStore: Sendable {
    /// The arm for a run at an allocation step: the participant's earlier one when the design
    /// names a participant parameter and they had one, else the next of the stratum's sequence.
    func allocate(_ request: AllocationRequest, now: Date) async throws -> String
    /// Counts the run in every quota listed, or in none: the identifier of one already at its
    /// limit, or nil once all are counted. A run counted before stays counted, once.
    func claimQuotas(survey: String, quotas: [(identifier: String, limit: Int)], run: UUID) async throws -> String?
    /// Takes back a run's counts (its completion could not be stored).
    func releaseQuotas(survey: String, quotas: [String], run: UUID) async throws
    /// Completed runs counted per quota.
    func quotaCounts(survey: String) async throws -> [String: Int]
    /// Arms assigned, per allocation step, stratum and arm.
    func allocationCounts(survey: String) async throws -> [AllocationCount]
}

public struct AllocationCount: Sendable, Hashable {
    public var step: String
    public var stratum: String
    public var arm: String
    public var count: Int

    public init(step: String, stratum: String, arm: String, count: Int) {
        self.step = step
        self.stratum = stratum
        self.arm = arm
        self.count = count
    }
}

/// The next arm of a stratum's sequence, and what remains of its block. Allocation draws from
/// the kernel's generator (`getrandom`), which nothing a participant sees can predict.
enum AllocationDraw {
    static func next(_ design: AllocationContent, pending: [String]) -> (arm: String, pending: [String]) {
        var generator = SystemRandomNumberGenerator()
        switch design.method {
        case .simple:
            return (design.draw(using: &generator), [])
        case .permutedBlocks:
            let values = Set(design.arms.map(\.value))
            // A block drawn for arms the survey no longer has is dropped.
            var block = pending.isEmpty || !pending.allSatisfy(values.contains) ? design.block(using: &generator) : pending
            let arm = block.removeFirst()
            return (arm, block)
        }
    }

    static func encode(_ pending: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(pending)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decode(_ text: String?) -> [String] {
        text.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
    }
}
