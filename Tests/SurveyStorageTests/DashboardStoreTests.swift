import Foundation
import JSON
import SurveyAnalysis
import SurveyCore
import Testing
@testable import SurveyStorage

/// The dashboard's facts in every store: SQL counts what the reference count in Swift counts,
/// under every filter; facts are replaced, not added to; and a deleted run's facts go with it.
@Suite("Dashboard facts in the stores")
struct DashboardStoreTests {
    typealias Kind = RunStoreBehaviourTests.Kind

    /// Facts for `count` runs, varied in day, status, labels, steps and answers by a seed.
    static func facts(for runs: [UUID], seed: UInt8) -> [RunFacts] {
        var generator = SeededGenerator(seed: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, seed)))
        let statuses = ["completed", "inProgress", "saved", "discarded"]
        return runs.map { run in
            let status = statuses[Int.random(in: 0..<4, using: &generator)]
            var facts = RunFacts(run: run, version: 1, day: 20_400 + Int.random(in: 0..<40, using: &generator), status: status)
            facts.labels[RunFacts.armLabel("arm")] = Bool.random(using: &generator) ? "a" : "b"
            if Bool.random(using: &generator) { facts.labels[RunFacts.parameterLabel("source")] = "mail" }
            let reached = Int.random(in: 1...4, using: &generator)
            facts.steps = (0..<reached).map { index in
                StepFact(step: "s\(index)", seconds: index == reached - 1 && status != "completed" ? nil : Int.random(in: 0..<90, using: &generator),
                         stopped: index == reached - 1 && status != "completed")
            }
            let mood = Double(Int.random(in: 1...5, using: &generator))
            facts.answers = [
                AnswerFact(key: "mood", outcome: AnswerFact.answered, number: mood),
                Bool.random(using: &generator) ? AnswerFact(key: "colour", outcome: AnswerFact.answered, bucket: ["red", "blue"].randomElement(using: &generator))
                    : AnswerFact(key: "colour", outcome: MissingReason.allCases.randomElement(using: &generator)!.rawValue),
                AnswerFact(key: "born", outcome: AnswerFact.answered, number: Double(-3_000 + Int.random(in: 0..<20_000, using: &generator))),
                AnswerFact(key: "share", outcome: AnswerFact.answered, number: [0.35, 0.6, 0.7, 0.05, 1][Int.random(in: 0..<5, using: &generator)]),
                AnswerFact(key: "pets", outcome: AnswerFact.answered),
                AnswerFact(key: "pets", outcome: AnswerFact.chosen, bucket: "cat"),
                AnswerFact(key: "note", outcome: AnswerFact.answered),
            ]
            return facts
        }
    }

    static let queries: [DashboardQuery] = [
        DashboardQuery(survey: "demo"),
        DashboardQuery(survey: "demo", fromDay: 20_410, toDay: 20_420),
        DashboardQuery(survey: "demo", status: "completed"),
        DashboardQuery(survey: "demo", labels: [.init(name: RunFacts.armLabel("arm"), value: "a")]),
        DashboardQuery(survey: "demo", status: "saved", labels: [.init(name: RunFacts.armLabel("arm"), value: "b"),
                                                                  .init(name: RunFacts.parameterLabel("source"), value: "mail")]),
        DashboardQuery(survey: "other"),
    ]

    @Test("Counts in the store equal the reference count, under every filter; histograms too", arguments: Kind.allCases)
    func countsMatchReference(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var ids: [UUID] = []
        for index in 0..<120 { ids.append(try await store.insert(RunStoreBehaviourTests.record(session: "s\(index)", survey: "demo")).id) }
        let facts = Self.facts(for: ids, seed: 7)
        try await store.writeDashboardFacts(facts, survey: "demo")
        let bins = ["mood": HistogramBins(origin: 1, width: 1, count: 5), "born": HistogramBins.make(.days, minimum: -3_000, maximum: 17_000),
                    "share": HistogramBins.make(.numbers, minimum: 0, maximum: 1)]
        for query in Self.queries {
            let tally = try await store.dashboardTally(query)
            let expected = DashboardTally(facts: query.survey == "demo" ? facts : [], query: query)
            #expect(tally.sorted == expected.sorted, "\(query)")
            var histograms: [String: [Int: Int]] = [:]
            for run in facts where query.survey == "demo" && query.admits(run) {
                for answer in run.answers where answer.outcome == AnswerFact.answered {
                    if let keyBins = bins[answer.key], let number = answer.number { histograms[answer.key, default: [:]][keyBins.bin(of: number), default: 0] += 1 }
                }
            }
            #expect(try await store.dashboardHistograms(query, bins: bins) == histograms, "\(query)")
        }
    }

    @Test("Writing a run's facts again replaces them; runs whose facts are missing or older are named; a deleted run's facts go", arguments: Kind.allCases)
    func replaceAndDelete(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var first = try await store.insert(RunStoreBehaviourTests.record(session: "a", survey: "demo", at: 10))
        let second = try await store.insert(RunStoreBehaviourTests.record(session: "b", survey: "demo", at: 20))
        func stale(since seconds: Double = 0) async throws -> [UUID] {
            try await store.dashboardStaleRuns(survey: "demo", changedSince: Date(timeIntervalSince1970: 1_800_000_000 + seconds), limit: 10)
        }
        #expect(try await stale() == [second.id, first.id], "runs without facts, newest first")
        var facts = Self.facts(for: [first.id, second.id], seed: 3)
        try await store.writeDashboardFacts(facts, survey: "demo")
        #expect(try await stale().isEmpty)
        first.updatedAt = Date(timeIntervalSince1970: 1_800_000_030)
        first = try await store.update(first)
        #expect(try await stale() == [first.id], "a run whose version moved on past its facts'")
        #expect(try await stale(since: 31).isEmpty, "changed before the instant asked about")
        facts[0].version = 2
        facts[0].status = "completed"
        facts[0].answers = [AnswerFact(key: "mood", outcome: MissingReason.dontKnow.rawValue)]
        try await store.writeDashboardFacts([facts[0]], survey: "demo")
        #expect(try await stale().isEmpty)
        #expect(Set(try await store.records(ids: [first.id, second.id, UUID()])) == [first, second], "runs read by identifier, as stored")
        #expect(try await store.dashboardTally(DashboardQuery(survey: "demo")).sorted == DashboardTally(facts: facts, query: DashboardQuery(survey: "demo")).sorted)

        try await store.delete(id: second.id, erasure: .erasure(reason: "test", by: .system("test"), at: Date()))
        let left = try await store.dashboardTally(DashboardQuery(survey: "demo"))
        #expect(left.days.map(\.count).reduce(0, +) == 1)
        #expect(left.sorted == DashboardTally(facts: [facts[0]], query: DashboardQuery(survey: "demo")).sorted)
        // Facts for a run that is gone are passed over.
        try await store.writeDashboardFacts(Self.facts(for: [second.id], seed: 9), survey: "demo")
        #expect(try await store.dashboardTally(DashboardQuery(survey: "demo")).days.map(\.count).reduce(0, +) == 1)
    }

    @Test("Runs discarded by their participant or left idle on a kiosk are named by when they began; other erasures are not", arguments: Kind.allCases)
    func discardedRuns(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        func made(_ session: String, survey: String = "demo", at seconds: Double) async throws -> RunRecord {
            var record = RunStoreBehaviourTests.record(session: session, survey: survey, at: seconds)
            // The chain begins at the first answer, a little after the run.
            record.audit.pending = [AuditEvent("run.created", by: .participant(session: session), at: record.run.startDate + 5, survey: survey,
                                               run: record.id)]
            return try await store.insert(record)
        }
        // An erasure written before erasures said when their run began: its chain's first entry says it.
        let older = UUID()
        try await store.appendAudit([AuditEvent("run.created", by: .system("test"), at: Date(timeIntervalSince1970: 1_800_000_001), survey: "demo", run: older),
                                     AuditEvent(AuditEntry.erasedAction, by: .system("test"), at: Date(timeIntervalSince1970: 1_800_000_002),
                                                survey: "demo", run: older, detail: .object(["reason": .string("discarded")]))],
                                    chain: AuditEntry.chain(of: older))
        let discarded = try await made("a", at: 10), idle = try await made("b", at: 20), retained = try await made("c", at: 30)
        let deletedByAPI = try await made("d", at: 40), elsewhere = try await made("e", survey: "other", at: 50)
        _ = try await made("f", at: 60)
        let later = Date(timeIntervalSince1970: 1_800_100_000)
        for (run, reason) in [(idle, "kioskIdle"), (discarded, "discarded"), (retained, "retention"), (deletedByAPI, "deleted"), (elsewhere, "discarded")] {
            try await store.delete(id: run.id, erasure: .erasure(reason: reason, by: .system("test"), at: later))
        }
        #expect(try await store.dashboardDiscardedRuns(survey: "demo") == [1_800_000_001, 1_800_000_010, 1_800_000_020].map(Date.init(timeIntervalSince1970:)),
                "when each began, oldest first, not when it was erased")
        let erasure = try #require(try await store.auditEntries(AuditQuery(run: discarded.id)).last)
        #expect(erasure.action == AuditEntry.erasedAction && erasure.detail == #"{"reason":"discarded","began":"2027-01-15T08:00:10+00:00"}"#)
        #expect(try await store.dashboardDiscardedRuns(survey: "other") == [Date(timeIntervalSince1970: 1_800_000_050)])
        #expect(try await store.dashboardDiscardedRuns(survey: "none").isEmpty)
    }

    @Test("A survey's watermark is kept, and moves on", arguments: Kind.allCases)
    func watermark(_ kind: Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        #expect(try await store.dashboardWatermark(survey: "demo") == nil)
        try await store.setDashboardWatermark(survey: "demo", Date(timeIntervalSince1970: 1_800_000_000))
        try await store.setDashboardWatermark(survey: "demo", Date(timeIntervalSince1970: 1_800_000_060))
        #expect(try await store.dashboardWatermark(survey: "demo") == Date(timeIntervalSince1970: 1_800_000_060))
        #expect(try await store.dashboardWatermark(survey: "other") == nil)
    }
}
