import Crypto
import Foundation
import SurveyCore
import SurveyPDF
import SurveyRendering
import SurveyStorage

/// The signed copies of consents: made once, when the participant certifies (and again, as a
/// second document, when staff countersign), kept beside the run, and never made again.
struct ConsentCopies: Sendable {
    let catalog: SurveyCatalog
    let store: any RunStore

    /// True when `next` is the post that completed the run's consent: agreed, signed and now certified.
    static func certifies(_ before: TaskRun, _ next: TaskRun, in survey: RunnableSurvey) -> Bool {
        // A survey without a consent review pays one flag's test per answer.
        survey.navigator.takesConsent && next.consent?.copySHA256 == nil && survey.navigator.consent(in: next)?.isComplete == true
            && survey.navigator.consent(in: before)?.isComplete != true
    }

    /// The run's copy of a kind, made now from the run if it has none: a second request for the
    /// same copy (a retried post) gets the one already kept.
    func copy(of run: TaskRun, survey: String, language: String, kind: RunDocument.Kind = .consent,
              countersignature: ConsentStatus.Countersignature? = nil, now: Date) async throws -> RunDocument? {
        if let kept = try await store.document(run: run.taskRunUUID, kind: kind) { return kept }
        guard let pages = catalog.surveys[survey],
              let spec = pages.consentCopy.spec(run: run, language: language, countersignature: countersignature) else { return nil }
        let bytes = try await Self.draw(spec)
        let document = RunDocument(runID: run.taskRunUUID, kind: kind, bytes: bytes, sha256: Self.sha256(bytes), createdAt: now)
        do {
            try await store.insertDocument(document)
            return document
        } catch let error as RunStoreError where error.isDuplicate {
            return try await store.document(run: run.taskRunUUID, kind: kind)
        }
    }

    /// Lays out and draws a PDF away from the event loops: a three-page copy takes milliseconds.
    @concurrent
    static func draw(_ spec: PDFDocumentSpec) async throws -> [UInt8] {
        try PDFMaker.make(spec)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
