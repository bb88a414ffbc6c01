import Foundation
import JSON
import SurveyCore
import SurveyStorage

// What the server does for panels and labs as a run is written: it draws the arm of an
// allocation step the run has reached, ends a run that meets a full quota, and counts a
// completed run in the quotas it meets (docs/panels.md). None of it is sent by the browser.
extension RunService {
    /// The arms drawn, the quotas claimed, and what the audit log records of them.
    struct PanelOutcome {
        var claimed: [String] = []
        var events: [AuditEvent] = []
    }

    /// Settles a run about to be written: allocation steps it stands on get their arm, a run
    /// meeting a full quota ends as quota full, and a completion is counted in its quotas (or
    /// ends as quota full when one filled first).
    func settlePanel(_ record: inout RunRecord, survey: RunnableSurvey, now: Date) async throws -> PanelOutcome {
        let navigator = survey.navigator
        var outcome = PanelOutcome()
        let actor = AuditActor.system("allocation")
        while let (step, design) = navigator.pendingAllocation(record.run) {
            let stratum = navigator.stratum(of: record.run, design: design, now: now)
            let request = AllocationRequest(survey: survey.task.identifier, step: step.identifier, design: design, stratum: stratum,
                                            participant: design.participantParameter.flatMap { record.run.parameters?[$0] }, run: record.id)
            let arm: String
            do {
                arm = try await store.allocate(request, now: now)
            } catch where !StoreFailure.isUnavailable(error) {
                // The same participant's first draw made at once elsewhere (in another stratum):
                // the unique index refused this one, and a second try finds that arm.
                arm = try await store.allocate(request, now: now)
            }
            record.run = navigator.assign(arm: arm, in: record.run, now: now)
            outcome.events.append(auditEvent("run.allocated", on: record, by: actor,
                                             detail: .object(["step": .string(step.identifier), "arm": .string(arm),
                                                              "stratum": .string(stratum)])))
        }
        guard !survey.task.quotas.isEmpty, record.run.finishReason == nil || record.run.finishReason == .completed else { return outcome }
        let met = navigator.quotasMet(by: record.run, now: now)
        guard !met.isEmpty else { return outcome }
        if record.run.finishReason == .completed {
            if let full = try await store.claimQuotas(survey: survey.task.identifier, quotas: met.map { ($0.identifier, $0.limit) }, run: record.id) {
                endAsQuotaFull(&record, quota: full, navigator: navigator, now: now, into: &outcome)
            } else {
                outcome.claimed = met.map(\.identifier)
                outcome.events.append(auditEvent("quota.counted", on: record, by: actor,
                                                 detail: .object(["quotas": .array(outcome.claimed.map(JSONValue.string))])))
            }
        } else {
            let counts = try await store.quotaCounts(survey: survey.task.identifier)
            if let full = met.first(where: { counts[$0.identifier, default: 0] >= $0.limit }) {
                endAsQuotaFull(&record, quota: full.identifier, navigator: navigator, now: now, into: &outcome)
            }
        }
        return outcome
    }

    private func endAsQuotaFull(_ record: inout RunRecord, quota: String, navigator: Navigator, now: Date, into outcome: inout PanelOutcome) {
        navigator.finish(&record.run, reason: .quotaFull, now: now)
        outcome.events.append(auditEvent("quota.full", on: record, by: .system("allocation"), detail: .object(["quota": .string(quota)])))
    }

    /// Where a finished run's participant goes next: the API's return address for a completed
    /// run made through it, else the survey's completion or screen-out address, filled in for
    /// this run, when its host is one the survey lists.
    func panelAddress(of record: RunRecord, in survey: RunnableSurvey) -> String? {
        guard let reason = record.run.finishReason else { return nil }
        if reason == .completed, let returnURL = record.returnURL { return returnURL }
        let task = survey.task
        let redirect = reason == .completed ? task.completionRedirect : reason.isScreenOut ? task.screenOutRedirect : nil
        guard let address = redirect?.address(runID: record.id, parameters: record.run.parameters ?? [:]),
              let host = URLComponents(string: address)?.host?.lowercased(), task.redirectHosts.contains(host) else { return nil }
        return address
    }
}
