import Foundation
import SurveyCore
import Testing
@testable import SurveyStorage

/// Signed consent copies: each store keeps one document per run and kind, as written, and
/// drops it with its run.
@Suite("Run documents")
struct RunDocumentTests {
    static func document(_ run: UUID, _ kind: RunDocument.Kind = .consent, bytes: [UInt8] = Array("%PDF-1.5\n\u{0}\u{FF}".utf8)) -> RunDocument {
        RunDocument(runID: run, kind: kind, bytes: bytes, sha256: String(repeating: "0f", count: 32),
                    createdAt: Date(timeIntervalSince1970: 1_800_000_123.5))
    }

    @Test("A document reads back byte for byte; a second of the same kind is refused and the first stays",
          arguments: RunStoreBehaviourTests.Kind.allCases)
    func writtenOnce(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await store.insert(RunStoreBehaviourTests.record())
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await store.insertDocument(Self.document(record.id, bytes: bytes))
        #expect(try await store.document(run: record.id, kind: .consent) == Self.document(record.id, bytes: bytes))
        await #expect(throws: RunStoreError.self) { try await store.insertDocument(Self.document(record.id)) }
        #expect(try await store.document(run: record.id, kind: .consent)?.bytes == bytes)
        #expect(try await store.document(run: record.id, kind: .countersignedConsent) == nil)
        try await store.insertDocument(Self.document(record.id, .countersignedConsent))
        #expect(try await store.document(run: record.id, kind: .countersignedConsent)?.kind == .countersignedConsent)
    }

    @Test("A document goes with its run, and none is kept for a run that is not there", arguments: RunStoreBehaviourTests.Kind.allCases)
    func goesWithItsRun(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        let record = try await store.insert(RunStoreBehaviourTests.record())
        try await store.insertDocument(Self.document(record.id))
        try await store.delete(id: record.id, erasure: .erasure(reason: "test", by: .system("test"), at: Date()))
        #expect(try await store.document(run: record.id, kind: .consent) == nil)
        await #expect(throws: RunStoreError.self) { try await store.insertDocument(Self.document(UUID())) }
    }

    @Test("A run's consent status reads back as written", arguments: RunStoreBehaviourTests.Kind.allCases)
    func consentStatusIsKept(_ kind: RunStoreBehaviourTests.Kind) async throws {
        let store = try await RunStoreBehaviourTests.makeStore(kind)
        var record = try await store.insert(RunStoreBehaviourTests.record())
        record.run.consent = ConsentStatus(copySHA256: "ab", countersignature: .init(name: "R. Staff", signedAt: record.updatedAt, copySHA256: "cd"),
                                           withdrawnAt: record.updatedAt.addingTimeInterval(60))
        record = try await store.update(record)
        #expect(try await store.record(id: record.id)?.run.consent == record.run.consent)
    }
}
