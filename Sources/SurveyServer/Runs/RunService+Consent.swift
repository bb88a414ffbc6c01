import Foundation
import JSON
import SurveyCore
import SurveyStorage

/// A consent after it was given: its signed copy, fetched on the participant's own device with
/// its code; staff's countersignature; and withdrawal with the code or link.
extension RunService {
    /// The kept copy of a run's consent: the countersigned one once there is one.
    func consentCopy(of record: RunRecord) async throws -> RunDocument? {
        if record.run.consent?.countersignature != nil,
           let countersigned = try await store.document(run: record.id, kind: .countersignedConsent) { return countersigned }
        return try await store.document(run: record.id, kind: .consent)
    }

    /// The completed run a copy or withdrawal code (normalized) or link token belongs to.
    func consentRun(code: String? = nil, token: String? = nil) async throws -> RunRecord? {
        let record = if let code { try await store.record(resumeCode: code) } else if let token { try await store.record(resumeToken: token) } else { nil as RunRecord? }
        guard let record, record.run.finishReason == .completed, record.run.consent?.copySHA256 != nil,
              let ticket = record.resume, ticket.expiresAt > clock() else { return nil }
        return record
    }

    /// True while a kiosk participant may still fetch the copy with its code.
    func copyCodeIsFresh(_ record: RunRecord) -> Bool {
        guard let ended = record.run.endDate else { return false }
        return clock() < ended.addingTimeInterval(Self.copyCodeLifetime)
    }

    /// Withdraws the consent of a completed run: the time is kept with the run, the code and link
    /// stop working, and the webhook is told. False when another request changed the run first.
    func withdraw(_ record: RunRecord) async throws -> Bool {
        var record = record
        let now = clock()
        var status = record.run.consent ?? ConsentStatus()
        guard status.withdrawnAt == nil else { return true }
        status.withdrawnAt = now
        record.run.consent = status
        record.resume = nil
        record.updatedAt = now
        record.audit.pending = [auditEvent("consent.withdrawn", on: record, by: .participant(session: record.sessionID))]
        do {
            if sendsWebhooks {
                let event: JSONValue = .object([
                    "event": .string("run.withdrawn"), "run": .string(record.id.uuidString.lowercased()),
                    "survey": .string(record.surveyIdentifier), "participantId": record.externalID.map(JSONValue.string),
                    "withdrawnAt": .string(ISO8601DateFormatter().string(from: now)),
                ])
                _ = try await store.update(record, enqueuing: JSONWriter.string(event, pretty: false))
            } else {
                _ = try await store.update(record)
            }
        } catch let error as RunStoreError where error.isConflict {
            return false
        }
        return true
    }

    /// A member of staff countersigns a completed, certified consent: a second copy with both
    /// signatures is made and kept, and its hash joins the run's consent.
    func countersign(_ record: RunRecord, name: String, language: String, by actor: AuditActor) async throws -> RunRecord? {
        guard let copies = consentCopies, var status = record.run.consent, status.countersignature == nil,
              status.withdrawnAt == nil else { return nil }
        let now = clock()
        var countersignature = ConsentStatus.Countersignature(name: name, signedAt: now, copySHA256: "")
        guard let copy = try await copies.copy(of: record.run, survey: record.surveyIdentifier, language: language,
                                               kind: .countersignedConsent, countersignature: countersignature, now: now) else { return nil }
        countersignature.copySHA256 = copy.sha256
        status.countersignature = countersignature
        var updated = record
        updated.run.consent = status
        updated.updatedAt = now
        updated.audit.pending = [auditEvent("consent.countersigned", on: record, by: actor,
                                            detail: .object(["copySHA256": .string(copy.sha256)]), content: .json(.object(["name": .string(name)])))]
        return try await store.update(updated)
    }
}
