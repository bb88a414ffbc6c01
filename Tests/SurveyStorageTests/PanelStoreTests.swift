import Foundation
import PostgresNIO
import SurveyCore
import Testing
@testable import SurveyStorage

/// Allocation sequences and quota counts in every store: permuted blocks exactly balanced in
/// every block, simple randomization within chance, a participant's arm kept, and quotas that
/// never count past their limit however many runs finish at once.
@Suite("Allocation and quotas in the stores")
struct PanelStoreTests {
    typealias Kind = RunStoreBehaviourTests.Kind

    static func request(_ design: AllocationContent, stratum: String = "", participant: String? = nil) -> AllocationRequest {
        AllocationRequest(survey: "study", step: "arm", design: design, stratum: stratum, participant: participant, run: UUID())
    }

    static let twoToOne = AllocationContent(arms: [.init(value: "a"), .init(value: "b", weight: 2)], method: .permutedBlocks, blockSize: 6)

    @Test("Permuted blocks: every block of 6 holds a twice and b four times, over 10,000 allocations", arguments: [Kind.memory, .sqlite])
    func permutedBlocksBalance(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var drawn: [String] = []
        for _ in 0..<10_002 { drawn.append(try await store.allocate(Self.request(Self.twoToOne), now: Date())) }
        for start in stride(from: 0, to: 10_002, by: 6) {
            let block = drawn[start..<start + 6]
            #expect(block.filter { $0 == "a" }.count == 2 && block.filter { $0 == "b" }.count == 4, "block at \(start): \(block)")
        }
        // The blocks' orders differ: 15 orders are possible, and 1,667 blocks show many of them.
        let orders = Set(stride(from: 0, to: 10_002, by: 6).map { drawn[$0..<$0 + 6].joined() })
        #expect(orders.count >= 14)
        let counts = try await store.allocationCounts(survey: "study")
        #expect(counts.map(\.count).reduce(0, +) == 10_002)
    }

    @Test("Strata have their own blocks: each stratum is balanced apart")
    func strataAreSeparate() async throws {
        let store = try await RunStoreBehaviourTests.makeStore(.sqlite)
        let design = AllocationContent(arms: [.init(value: "a"), .init(value: "b")], method: .permutedBlocks, blockSize: 4)
        for index in 0..<400 { _ = try await store.allocate(Self.request(design, stratum: index % 3 == 0 ? "age=old" : "age=young"), now: Date()) }
        let counts = try await store.allocationCounts(survey: "study")
        let old = counts.filter { $0.stratum == "age=old" }.map(\.count)
        let young = counts.filter { $0.stratum == "age=young" }.map(\.count)
        // 134 old runs: 33 whole blocks and 2 of the next; 266 young: 66 blocks and 2.
        #expect(old.reduce(0, +) == 134 && (old.max()! - old.min()!) <= 2)
        #expect(young.reduce(0, +) == 266 && (young.max()! - young.min()!) <= 2)
    }

    @Test("Simple randomization with weights 1:3 stays within a chi-square bound over 10,000 draws")
    func simpleWithinChance() async throws {
        let store = MemoryRunStore()
        let design = AllocationContent(arms: [.init(value: "a"), .init(value: "b", weight: 3)], method: .simple)
        var a = 0
        for _ in 0..<10_000 where await store.allocate(Self.request(design), now: Date()) == "a" { a += 1 }
        let expectedA = 2_500.0, expectedB = 7_500.0
        let chiSquare = pow(Double(a) - expectedA, 2) / expectedA + pow(Double(10_000 - a) - expectedB, 2) / expectedB
        // One degree of freedom: 10.83 is the 0.1 % point, so a fair draw fails once in a thousand runs.
        #expect(chiSquare < 10.83, "a drawn \(a) times")
    }

    @Test("A participant who starts again gets the arm they had, in whatever stratum, and does not move the sequence",
          arguments: Kind.allCases)
    func participantKeepsArm(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let design = AllocationContent(arms: [.init(value: "a"), .init(value: "b")], method: .simple)
        let first = try await store.allocate(Self.request(design, participant: "P-1"), now: Date())
        for index in 0..<20 {
            #expect(try await store.allocate(Self.request(design, stratum: "age=\(index % 3)", participant: "P-1"), now: Date()) == first)
        }
        #expect(try await store.allocationCounts(survey: "study").map(\.count).reduce(0, +) == 1)
    }

    @Test("Quotas: 100 runs finishing at once against a limit of 50 leave exactly 50 counted", arguments: Kind.allCases)
    func quotaNeverOvershoots(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let counted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask { try await store.claimQuotas(survey: "study", quotas: [("women", 50), ("all", 1_000)], run: UUID()) == nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(counted == 50)
        // A run refused by one quota is counted in none.
        #expect(try await store.quotaCounts(survey: "study") == ["women": 50, "all": 50])
    }

    @Test("A run is counted once however often it claims, and a released claim frees its place", arguments: Kind.allCases)
    func claimOnceAndRelease(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let run = UUID()
        #expect(try await store.claimQuotas(survey: "study", quotas: [("q", 1)], run: run) == nil)
        #expect(try await store.claimQuotas(survey: "study", quotas: [("q", 1)], run: run) == nil)
        #expect(try await store.claimQuotas(survey: "study", quotas: [("q", 1)], run: UUID()) == "q")
        try await store.releaseQuotas(survey: "study", quotas: ["q"], run: run)
        #expect(try await store.quotaCounts(survey: "study")["q", default: 0] == 0)
        #expect(try await store.claimQuotas(survey: "study", quotas: [("q", 1)], run: UUID()) == nil)
    }

    @Test("Two PostgreSQL replicas drawing at once never draw past a block")
    func replicasShareBlocks() async throws {
        guard let replicas = try await RunStoreBehaviourTests.postgresReplicas(2) else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<240 {
                group.addTask { _ = try await replicas[index % 2].allocate(Self.request(Self.twoToOne), now: Date()) }
            }
            try await group.waitForAll()
        }
        var arms: [String] = []
        for try await arm in try await replicas[0].client.query("SELECT arm FROM allocations ORDER BY seq").decode(String.self) { arms.append(arm) }
        #expect(arms.count == 240)
        for start in stride(from: 0, to: 240, by: 6) {
            #expect(arms[start..<start + 6].filter { $0 == "a" }.count == 2, "block at \(start)")
        }
    }
}
