import Foundation
import JSON
import Prometheus
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The rules of a run, in one place: where a session stands, starting a run with its first
/// answer, answering, Back, Skip, saving, cancelling and completing it, resuming it elsewhere,
/// and its result; with the store and the webhook outbox behind it. Controllers read the
/// request, call this, and choose the page: none reaches the engine or changes a run itself.
///
/// Taking a survey is here; resuming in `+Resume`, results and the researcher's runs in `+Results`.
struct RunService: Sendable {
    let store: any RunStore
    let clock: @Sendable () -> Date
    let metrics: ServerMetrics
    /// How long a saved run's resume code and link, or an API run's start link, stay valid.
    let resumeLifetime: TimeInterval
    /// True when completed runs are posted to a webhook: each completion is written with its event.
    let sendsWebhooks: Bool
    /// Runs started per client address, when limited.
    let runStarts: AttemptLimiter?
    /// What a completion's webhook event holds.
    var webhookFormat: WebhookFormat = .json
    /// Where signed consent copies are made and kept; nil where no copy is kept (the preview).
    var consentCopies: ConsentCopies?
    /// How many refusals (wrong PINs and tokens) the audit log records a minute.
    let refusals = RefusalBudget()
    /// How long a kiosk participant may fetch their signed copy on their own device with its code.
    static let copyCodeLifetime: TimeInterval = 30 * 60

    /// The time zone a survey's dates are read and written in.
    func timeZone(of survey: RunnableSurvey) -> TimeZone {
        survey.navigator.timeZone
    }

    /// How answers are read and shown for a participant in `language`, now.
    func answerContext(_ survey: RunnableSurvey, language: String) -> AnswerContext {
        AnswerContext(language: language, now: clock(), timeZone: survey.navigator.timeZone)
    }

    // MARK: Where a session stands

    /// Where a session stands in a survey.
    enum Position {
        /// Its run in progress, at `run.cursor`.
        case inProgress(RunRecord)
        /// No run yet: the survey's first page, drawn from the survey alone and shown at
        /// `shownAt`. Nothing is stored until the first answer is posted.
        case notStarted(TaskRun, shownAt: Date)
    }

    /// Where the session (nil for a visitor who brought none) stands. A run saved for later and
    /// opened again in the browser that saved it carries on, and its code and link stop working.
    func show(_ survey: RunnableSurvey, session: String?, parameters: [String: String] = [:],
              runID: (Date) -> UUID = { _ in UUID() }) async throws -> Position {
        if let session, var record = try await store.activeRecord(session: session, survey: survey.task.identifier) {
            if record.savedAt != nil {
                record.savedAt = nil
                record.resume = nil
                record.updatedAt = clock()
                record.audit.pending = [auditEvent("run.resumed", on: record, by: .participant(session: session),
                                                   detail: .object(["via": .string("sameBrowser")]))]
                record = (try? await store.update(record)) ?? record
            }
            return .inProgress(record)
        }
        let now = clock()
        // The identifier the first answer will start the run with: the orders drawn from it now are the run's.
        return .notStarted(survey.navigator.start(uuid: runID(now), now: now, parameters: parameters), shownAt: now)
    }

    /// The session's run in progress, when `visit` is a step it has passed and may change.
    func runToChange(_ survey: RunnableSurvey, session: String, visit: Int?) async throws -> RunRecord? {
        guard let record = try await store.activeRecord(session: session, survey: survey.task.identifier),
              let visit, visit >= 0, visit < record.run.cursor else { return nil }
        return record
    }

    /// The session's run of a survey that has not finished, if any.
    func activeRun(_ survey: RunnableSurvey, session: String) async throws -> RunRecord? {
        try await store.activeRecord(session: session, survey: survey.task.identifier)
    }

    // MARK: Posting a page

    /// The run a page was posted to.
    enum Target {
        case stored(RunRecord)
        /// The session has no run yet: this post starts run `id`, dated from when its first
        /// page was shown, and counts against the client's limit on new runs.
        case starting(id: UUID, session: String, shownAt: Date, client: String, parameters: [String: String] = [:])
    }

    /// A page posted to a run: the run (as stored, or as this post starts it) and the visit the
    /// page belongs to, which is an older one when a browser's Back was used.
    struct Post {
        let survey: RunnableSurvey
        var record: RunRecord
        let visit: Int
        let now: Date
        /// When this post starts the run: the client it counts against.
        let startingClient: String?
        /// Where the participant is answering (their browser, a kiosk, the preview).
        var via: Presentation = .web
    }

    /// What became of a post.
    enum Outcome {
        /// Stored: the run as it now stands.
        case stored(RunRecord)
        /// An answer to correct; nothing was stored. The context is the one the answers were read in.
        case rejected([AnswerIssue], AnswerContext)
        /// Nothing was stored: Back on a run not started yet, or another request moved (or
        /// started) the run first. Show the run where it stands.
        case unchanged
        /// The client has started as many runs as it may in the hour.
        case tooManyRuns
        /// The store could not be reached or could not write (a failover under way): nothing
        /// was stored, and the page is shown again with its input to be sent again.
        case notSaved
    }

    /// Reads a post's place in the run: the visit it came from (the current one unless it names
    /// an earlier one) and the page of a form it showed.
    func post(to target: Target, of survey: RunnableSurvey, visit: Int?, page: Int?, instance: Int? = nil, now: Date,
              via: Presentation = .web) -> Post {
        let navigator = survey.navigator
        var record: RunRecord
        var startingClient: String?
        switch target {
        case .stored(let stored):
            record = stored
        case .starting(let id, let session, let shownAt, let client, let parameters):
            record = RunRecord(run: navigator.start(uuid: id, now: shownAt, parameters: parameters), surveyIdentifier: survey.task.identifier,
                               sessionID: session, version: 0, updatedAt: now, surveyVersion: survey.version)
            startingClient = client
        }
        var index = visit ?? record.run.cursor
        if index < 0 || index > record.run.cursor { index = record.run.cursor }
        // A repeating form's instance page names its instance: the answers go to the one they were typed for.
        if let instance { record.run = navigator.focus(record.run, visit: index, instance: instance) }
        if let page, let step = navigator.step(of: record.run.visits[index]), navigator.pages(of: step).indices.contains(page) {
            record.run.visits[index].page = page
        }
        return Post(survey: survey, record: record, visit: index, now: now, startingClient: startingClient, via: via)
    }

    /// Checks the answers of the posted page and, when they hold, saves them and moves on;
    /// `returning` goes back to the review step the change was made from.
    func answer(_ post: Post, fields: FormFields, language: String, returning: Bool) async throws -> Outcome {
        let context = answerContext(post.survey, language: language)
        switch post.survey.navigator.answer(post.record.run, visit: post.visit, fields: fields, context: context,
                                            returnToCurrent: returning) {
        case .rejected(let issues):
            metrics.validationErrors.increment()
            return .rejected(issues, context)
        case .accepted(var next):
            var post = post
            if ConsentCopies.certifies(post.record.run, next, in: post.survey) {
                // The consent is complete: its signed copy is made now, once, and its hash kept with
                // the run; its code lets the participant fetch the copy elsewhere, or withdraw later.
                if let copies = consentCopies,
                   let copy = try await copies.copy(of: next, survey: post.survey.task.identifier, language: language, now: post.now) {
                    next.consent = ConsentStatus(copySHA256: copy.sha256)
                }
                post.record.resume = ResumeTicket.make(now: post.now, lifetime: resumeLifetime)
            }
            return try await write(post, run: next, .answer)
        }
    }

    /// A button of a repeating form's list page or of a removal's confirmation.
    func act(_ action: RepeatAction, _ post: Post, fields: FormFields, language: String, returning: Bool) async throws -> Outcome {
        let context = answerContext(post.survey, language: language)
        switch post.survey.navigator.act(action, on: post.record.run, visit: post.visit, fields: fields, now: post.now,
                                         returnToCurrent: returning) {
        case .rejected(let issues):
            metrics.validationErrors.increment()
            return .rejected(issues, context)
        case .accepted(let next):
            return try await write(post, run: next, .instances)
        }
    }

    func back(_ post: Post) async throws -> Outcome {
        guard post.startingClient == nil else { return .unchanged }
        var run = post.record.run
        run.cursor = post.visit
        return try await write(post, run: post.survey.navigator.back(run, now: post.now), .back)
    }

    /// Disagree on a consent review: the run ends as declined.
    func decline(_ post: Post) async throws -> Outcome {
        guard let step = post.survey.navigator.step(of: post.record.run.visits[post.visit]), step.isConsentReview else { return .unchanged }
        return try await write(post, run: post.survey.navigator.decline(post.record.run, visit: post.visit, now: post.now), .decline)
    }

    func skip(_ post: Post) async throws -> Outcome {
        try await write(post, run: post.survey.navigator.skip(post.record.run, visit: post.visit, now: post.now), .skip)
    }

    /// "Save for later": the run keeps its answers and gets a resume code and link.
    func save(_ post: Post) async throws -> Outcome {
        var post = post
        post.record.savedAt = post.now
        post.record.resume = ResumeTicket.make(now: post.now, lifetime: resumeLifetime)
        return try await write(post, run: post.record.run, .save)
    }

    /// "Discard" on the cancel page: the run and its answers are deleted, and so is what its
    /// audit chain holds of them.
    func cancel(_ post: Post) async throws {
        guard post.startingClient == nil else { return }
        try await store.delete(id: post.record.id, erasure: .erasure(reason: "discarded", by: .participant(session: post.record.sessionID),
                                                                      at: post.now))
    }

    /// Stores the run a post led to, with what the audit log records of it, and counts what it did.
    private func write(_ post: Post, run: TaskRun, _ action: PostAction) async throws -> Outcome {
        var record = post.record
        record.run = run
        record.updatedAt = post.now
        let panel: PanelOutcome
        do {
            panel = try await settlePanel(&record, survey: post.survey, now: post.now)
        } catch where StoreFailure.isUnavailable(error) {
            metrics.writesRefused.increment()
            return .notSaved
        }
        record.audit.pending = auditEvents(action, post: post, old: post.record, new: record) + panel.events
        do {
            record = try await write(record, startingClient: post.startingClient, survey: post.survey)
        } catch {
            // A completion that could not be stored is not counted in its quotas.
            if !panel.claimed.isEmpty {
                try? await store.releaseQuotas(survey: post.survey.task.identifier, quotas: panel.claimed, run: record.id)
            }
            switch error {
            case let error as RunStoreError where error.isConflict || error.isDuplicate:
                return .unchanged
            case is RunStartLimit:
                return .tooManyRuns
            case _ where StoreFailure.isUnavailable(error):
                metrics.writesRefused.increment()
                return .notSaved
            default:
                throw error
            }
        }
        if record.savedAt != nil {
            metrics.runsSaved.increment()
        } else if record.run.finishReason == .completed {
            metrics.runsCompleted.increment()
        }
        return .stored(record)
    }

    /// Stores a run: inserts it when this post started it (within the client's limit on new
    /// runs), else updates it; a completion is written with its webhook event.
    private func write(_ record: RunRecord, startingClient client: String?, survey: RunnableSurvey) async throws -> RunRecord {
        var record = record
        let completing = record.run.finishReason == .completed && sendsWebhooks
        if let client {
            var slot: Date?
            if let runStarts {
                slot = await runStarts.reserve(client, now: record.updatedAt)
                if slot == nil { throw RunStartLimit() }
            }
            do {
                if completing {
                    // The completion and its event go together in an update, so the run is first stored as it began.
                    var started = record
                    started.run = survey.navigator.start(uuid: record.id, now: record.run.startDate, parameters: record.run.parameters ?? [:])
                    started.audit.pending = []
                    record.version = try await store.insert(started).version
                } else {
                    record = try await store.insert(record)
                }
            } catch {
                if let slot { await runStarts?.release(client, reservedAt: slot) }
                throw error
            }
            metrics.runsStarted.increment()
            if !completing { return record }
        }
        if completing { return try await complete(record, survey: survey) }
        return try await store.update(record)
    }

    /// Writes a completion together with its webhook event: neither exists without the other.
    private func complete(_ record: RunRecord, survey: RunnableSurvey) async throws -> RunRecord {
        let result = survey.navigator.result(of: record.run, now: record.updatedAt)
        let resultJSON = result.json(in: survey.navigator.timeZone)
        let body: JSONValue
        switch webhookFormat {
        case .json:
            body = .object([
                "event": .string("run.completed"),
                "run": .string(record.id.uuidString.lowercased()),
                "survey": .string(record.surveyIdentifier),
                "participantId": record.externalID.map(JSONValue.string),
                "result": resultJSON,
            ])
        case .fhir, .fhirTransaction:
            let response = QuestionnaireResponseExport.response(survey: survey.json, result: resultJSON, surveyVersion: survey.version,
                                                                context: record.fhirContext)
            body = webhookFormat == .fhir ? response : QuestionnaireResponseExport.transaction(survey: survey.json, response: response)
        }
        let event = JSONWriter.string(body, pretty: false)
        return try await store.update(record, enqueuing: event)
    }
}

/// The client has started as many runs as it may in the hour.
struct RunStartLimit: Error {}
