import Foundation
import JSON
import Prometheus
import SurveyCore
import SurveyRendering
import SurveyStorage
import Synchronization

/// What the audit log records of a run's changes. Each event rides on the write it describes
/// (`RunRecord.audit.pending`), so the store writes both in one transaction or neither.
extension RunService {
    /// What a participant's post did.
    enum PostAction: String {
        case answer, back, skip, decline, save
        /// A button of a repeating form's list or of a removal's confirmation.
        case instances
    }

    /// The events a post's write records: the run's start when it starts it, then what it did,
    /// with the answers before and after (as content, erased with the run), then its end.
    func auditEvents(_ action: PostAction, post: Post, old: RunRecord, new: RunRecord) -> [AuditEvent] {
        let survey = post.survey
        let actor = AuditActor.participant(session: old.sessionID)
        func event(_ name: String, _ detail: JSONValue = .object([:]), content: AuditContent? = nil) -> AuditEvent {
            AuditEvent(name, by: actor, at: post.now, survey: survey.task.identifier, run: old.id, detail: detail, content: content)
        }
        var events: [AuditEvent] = []
        if post.startingClient != nil {
            events.append(event("run.created", .object(["via": .string(post.via.auditName), "surveyVersion": .string(survey.version)])))
        }
        // `post(to:)` keeps the visit within the run.
        let stepID = old.run.visits[post.visit].stepIdentifier
        let step = survey.navigator.step(of: old.run.visits[post.visit])
        let place: JSONValue = .object(["step": .string(stepID), "visit": .number(Double(post.visit)),
                                        "page": .number(Double(old.run.visits[post.visit].page))])
        switch action {
        case .answer where step?.repeating != nil, .instances:
            events += instanceEvents(old: old.run.visits[post.visit],
                                     new: new.run.visits.indices.contains(post.visit) ? new.run.visits[post.visit] : nil, place: place, event: event)
        case .answer:
            let before = old.run.visits[post.visit].results
            let after = new.run.visits.indices.contains(post.visit) ? new.run.visits[post.visit].results : []
            let name: String
            if step?.isConsentReview == true {
                name = old.run.visits[post.visit].page == 0 ? "consent.signed" : "consent.certified"
            } else {
                name = before.isEmpty ? "answer.saved" : (before == after ? "answer.confirmed" : "answer.changed")
            }
            events.append(event(name, place, content: before.isEmpty && after.isEmpty ? nil : .answers(before: before, after: after)))
        case .back:
            let to = new.run.visits.indices.contains(new.run.cursor) ? new.run.visits[new.run.cursor].stepIdentifier : ""
            events.append(event("step.back", .object(["step": .string(stepID), "visit": .number(Double(post.visit)), "to": .string(to)])))
        case .skip:
            events.append(event("step.skipped", place))
        case .decline:
            events.append(event("consent.declined", place))
        case .save:
            events.append(event("run.saved"))
        }
        if let reason = new.run.finishReason, old.run.finishReason == nil {
            events.append(event("run.\(reason == .completed ? "completed" : "finished")", .object(["reason": .string(reason.rawValue)])))
        }
        return events
    }

    /// What a post changed in a repeating form's instances: one saved (added or changed), or one
    /// removed, with its answers before and after. Moving between its pages records nothing.
    private func instanceEvents(old: StepVisit, new: StepVisit?, place: JSONValue,
                                event: (String, JSONValue, AuditContent?) -> AuditEvent) -> [AuditEvent] {
        let before = old.instances ?? []
        let after = new?.instances ?? []
        guard before != after, case .object(var detail) = place else { return [] }
        if after.count < before.count {
            let index = before.indices.first { $0 >= after.count || before[$0] != after[$0] } ?? before.count - 1
            detail["instance"] = .number(Double(index + 1))
            return [event("instance.removed", .object(detail), .answers(before: before[index], after: []))]
        }
        let index = after.indices.first { $0 >= before.count || before[$0] != after[$0] } ?? after.count - 1
        detail["instance"] = .number(Double(index + 1))
        return [event("instance.saved", .object(detail), .answers(before: index < before.count ? before[index] : [], after: after[index]))]
    }

    /// An event about a run, by someone other than its participant.
    func auditEvent(_ action: String, on record: RunRecord, by actor: AuditActor, detail: JSONValue = .object([:]),
                    content: AuditContent? = nil) -> AuditEvent {
        AuditEvent(action, by: actor, at: clock(), survey: record.surveyIdentifier, run: record.id, detail: detail, content: content)
    }

    /// Records a researcher's or staff member's action that changes nothing of a run (a read, an
    /// export, a sign-in) in the `access` chain. It throws `AuditUnwritten` when the entry cannot
    /// be written: the caller then refuses the action rather than let it go unrecorded.
    func recordAccess(_ action: String, by actor: AuditActor, survey: String = "", run: UUID? = nil,
                      detail: JSONValue = .object([:])) async throws {
        do {
            try await store.appendAudit([AuditEvent(action, by: actor, at: clock(), survey: survey, run: run, detail: detail)],
                                        chain: AuditEntry.accessChain)
        } catch {
            throw AuditUnwritten()
        }
    }

    /// Every entry about a run, in the order written, recorded as read by `actor`; nil when the
    /// log holds nothing about it. The API's history and the staff's page both read it here.
    func history(of run: UUID, by actor: AuditActor) async throws -> [AuditEntry]? {
        var entries: [AuditEntry] = []
        try await store.forEachAuditEntry(AuditQuery(run: run)) { entries.append($0) }
        guard let first = entries.first else { return nil }
        try await recordAccess("history.read", by: actor, survey: first.survey, run: run)
        return entries
    }

    /// Records a refusal (a wrong PIN or token). What it records has already happened, so a
    /// failure to write it is counted, not shown. Refusals come from people who hold no secret,
    /// so they are recorded at most `RefusalBudget.perMinute` a minute by each server; the next
    /// one recorded says how many were left out.
    func recordRefusal(_ action: String, by actor: AuditActor, survey: String = "", detail: JSONValue = .object([:])) async {
        guard let leftOut = refusals.take(now: clock()) else { return }
        var detail = detail
        if leftOut > 0, case .object(var object) = detail {
            object["refusalsNotRecorded"] = .number(Double(leftOut))
            detail = .object(object)
        }
        do {
            try await recordAccess(action, by: actor, survey: survey, detail: detail)
        } catch {
            metrics.auditWritesFailed.increment()
        }
    }
}

/// How many refusals the audit log records a minute: enough for any honest mistake, too few
/// for a flood of wrong tokens to fill the disk or hold the `access` chain's lock.
final class RefusalBudget: Sendable {
    static let perMinute = 60
    private let state = Mutex((windowStart: Date.distantPast, used: 0, leftOut: 0))

    /// Nil when this minute's budget is spent (the refusal is counted as left out); otherwise
    /// how many were left out since the last one recorded.
    func take(now: Date) -> Int? {
        state.withLock { state in
            if now.timeIntervalSince(state.windowStart) >= 60 {
                state.windowStart = now
                state.used = 0
            }
            guard state.used < Self.perMinute else {
                state.leftOut += 1
                return nil
            }
            state.used += 1
            defer { state.leftOut = 0 }
            return state.leftOut
        }
    }
}

extension Presentation {
    /// How a run was reached, as the log says it.
    var auditName: String {
        switch self {
        case .web: return "link"
        case .kiosk: return "kiosk"
        case .preview: return "preview"
        }
    }
}

/// The audit log could not record a researcher's or staff member's request, which is then not carried out.
struct AuditUnwritten: Error {}
