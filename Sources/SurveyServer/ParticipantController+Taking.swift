import Foundation
import Hummingbird
import NIOCore
import Prometheus
import SurveyCore
import SurveyRendering
import SurveyStorage

/// Taking a survey: the list, a step, an answer, Back, Skip, Change, Cancel, and the end.
extension ParticipantController {
    func index(_ request: Request) async throws -> Response {
        guard let first = catalog.surveys.values.first else { throw HTTPError(.notFound) }
        let surveys = catalog.surveys.values.sorted { $0.task.identifier < $1.task.identifier }.map { pages -> [String: Any] in
            ["identifier": pages.task.identifier, "title": pages.texts.plain(pages.task.title, language: nil) ?? pages.task.identifier]
        }
        let body = first.renderPage("index", language: "en", title: "Surveys", values: ["surveys": surveys, "surveyTitle": "Surveys"])
        return html(body, visitor: nil)
    }

    /// The session's run of the survey where it stands; with no run, the survey's first page,
    /// drawn from the survey alone: nothing is stored until the first answer is posted.
    func show(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        let answerContext = answerContext(pages, language: visitor.language)
        if !visitor.isNew, var record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier) {
            if record.savedAt != nil {
                // Back in the browser that saved it: carry on, and the code and link stop working.
                record.savedAt = nil
                record.resume = nil
                record.updatedAt = clock()
                record = (try? await store.update(record)) ?? record
            }
            guard let body = pages.renderStep(run: record.run, visit: record.run.cursor, language: visitor.language,
                                              csrfToken: signer.csrfToken(session: visitor.session, run: record.id),
                                              context: answerContext) else {
                throw HTTPError(.internalServerError)
            }
            return html(body, visitor: visitor)
        }
        let now = clock()
        let fresh = pages.navigator.start(uuid: UUID(), now: now)
        guard let body = pages.renderStep(run: fresh, visit: 0, language: visitor.language,
                                          csrfToken: signer.pageToken(session: visitor.session, shownAt: now), context: answerContext) else {
            throw HTTPError(.internalServerError)
        }
        return html(body, visitor: visitor)
    }

    func change(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier),
              let index = context.parameters.get("visit", as: Int.self), index >= 0, index < record.run.cursor else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        guard let body = pages.renderStep(run: record.run, visit: index, language: visitor.language,
                                          csrfToken: signer.csrfToken(session: visitor.session, run: record.id), returnToReview: true,
                                          context: answerContext(pages, language: visitor.language)) else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        return html(body, visitor: visitor)
    }

    func submit(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let identifier = pages.task.identifier
        let visitor = visitor(request, context, pages: pages)
        let fields = try await formFields(request)
        let expired = HTTPError(.forbidden, message: Catalog(language: visitor.language)["formExpired"])
        guard !visitor.isNew else { throw expired }
        let now = clock()
        var record: RunRecord
        var runStart: Date?
        if let active = try await store.activeRecord(session: visitor.session, survey: identifier) {
            guard signer.checkCSRF(fields["_csrf"], session: visitor.session, run: active.id) else {
                // A first page posted from another tab after this one started the run: show where it stands.
                if signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil { return redirect("/surveys/\(identifier)") }
                throw expired
            }
            record = active
        } else {
            guard let shownAt = signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) else {
                if try await store.lastFinishedRecord(session: visitor.session, survey: identifier) != nil {
                    return redirect("/surveys/\(identifier)/done")
                }
                throw expired
            }
            // The first answer starts the run, dated from when its first page was shown.
            record = RunRecord(run: pages.navigator.start(uuid: signer.runID(session: visitor.session, shownAt: shownAt), now: shownAt),
                               surveyIdentifier: identifier,
                               sessionID: visitor.session, version: 0, updatedAt: now)
            runStart = shownAt
        }
        let navigator = pages.navigator
        var run = record.run
        var index = fields["_visit"].flatMap(Int.init) ?? run.cursor
        if index < 0 || index > run.cursor { index = run.cursor }
        if let page = fields["_page"].flatMap(Int.init), let step = navigator.step(of: run.visits[index]),
           navigator.pages(of: step).indices.contains(page) {
            run.visits[index].page = page
        }
        switch fields["_action"] ?? "next" {
        case "back":
            guard runStart == nil else { return redirect("/surveys/\(identifier)") }
            run.cursor = index
            run = navigator.back(run, now: now)
        case "skip":
            run = navigator.skip(run, visit: index, now: now)
        case "save":
            record.savedAt = now
            record.resume = ResumeTicket.make(now: now, lifetime: configuration.resumeLifetime)
        case "cancel":
            return redirect("/surveys/\(identifier)/cancel")
        case "discard":
            if runStart == nil { try await store.delete(id: record.id) }
            return redirect("/surveys/\(identifier)/discarded")
        default:
            let answerContext = answerContext(pages, language: visitor.language)
            let returning = fields["_return"] == "1"
            switch navigator.answer(run, visit: index, fields: fields, context: answerContext, returnToCurrent: returning) {
            case .rejected(let issues):
                metrics.validationErrors.increment()
                let token = runStart.map { signer.pageToken(session: visitor.session, shownAt: $0) }
                    ?? signer.csrfToken(session: visitor.session, run: record.id)
                guard let body = pages.renderStep(run: run, visit: index, language: visitor.language, csrfToken: token, submitted: fields,
                                                  issues: issues, returnToReview: returning, context: answerContext) else {
                    throw HTTPError(.internalServerError)
                }
                return html(body, status: .unprocessableContent, visitor: nil)
            case .accepted(let next):
                run = next
            }
        }
        record.run = run
        record.updatedAt = now
        do {
            record = try await write(record, isNew: runStart != nil, request: request, context: context, pages: pages)
        } catch let error as RunStoreError where error.isConflict || error.isDuplicate {
            // Another request moved (or started) the run first: show where it stands now.
            return redirect("/surveys/\(identifier)")
        } catch is RunStartLimit {
            return errorPage(pages, status: .tooManyRequests, titleKey: "tooManyRuns", textKey: "tooManyRuns", visitor: visitor)
        }
        if record.savedAt != nil {
            metrics.runsSaved.increment()
            return redirect("/surveys/\(identifier)/saved")
        }
        if record.run.finishReason == .completed {
            metrics.runsCompleted.increment()
            // A run made through the API sends the participant back where the researcher asked,
            // through a page of ours: a redirect after a form post would break the CSP's form-action.
            if record.returnURL != nil { return redirect("/surveys/\(identifier)/return") }
        }
        return redirect(record.run.isFinished ? "/surveys/\(identifier)/done" : "/surveys/\(identifier)")
    }

    /// Stores a run: inserts it when this answer started it (within the client's limit on
    /// new runs), else updates it; a completion is written with its webhook event.
    private func write(_ record: RunRecord, isNew: Bool, request: Request, context: SurveyRequestContext,
                       pages: SurveyPages) async throws -> RunRecord {
        var record = record
        let completing = record.run.finishReason == .completed && configuration.webhookURL != nil
        if isNew {
            let client = clientKey(request, context)
            var slot: Date?
            if let runStarts = limits.runStarts {
                slot = await runStarts.reserve(client, now: record.updatedAt)
                if slot == nil { throw RunStartLimit() }
            }
            do {
                if completing {
                    // The completion and its event go together in an update, so the run is first stored as it began.
                    var started = record
                    started.run = pages.navigator.start(uuid: record.id, now: record.run.startDate)
                    record.version = try await store.insert(started).version
                } else {
                    record = try await store.insert(record)
                }
            } catch {
                if let slot { await limits.runStarts?.release(client, reservedAt: slot) }
                throw error
            }
            metrics.runsStarted.increment()
            if !completing { return record }
        }
        if completing {
            // The completion and its webhook are written together: neither exists without the other.
            return try await store.update(record, enqueuing: completionEvent(record, pages: pages))
        }
        return try await store.update(record)
    }

    func cancelPage(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew else { return redirect("/surveys/\(pages.task.identifier)", visitor: visitor) }
        let record = try await store.activeRecord(session: visitor.session, survey: pages.task.identifier)
        let token = record.map { signer.csrfToken(session: visitor.session, run: $0.id) }
            ?? signer.pageToken(session: visitor.session, shownAt: clock())
        let body = pages.renderPage("cancel", language: visitor.language, title: Catalog(language: visitor.language)["cancelTitle"], values: [
            "csrf": token, "visit": String(record?.run.cursor ?? 0),
        ])
        return html(body, visitor: visitor)
    }

    func message(_ request: Request, _ context: SurveyRequestContext, kind: String, titleKey: String) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        let body = pages.renderPage(kind, language: visitor.language, title: Catalog(language: visitor.language)[titleKey])
        return html(body, visitor: visitor)
    }

    func done(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier),
              record.run.finishReason == .completed else {
            return redirect("/surveys/\(pages.task.identifier)", visitor: visitor)
        }
        if let last = record.run.visits.last, pages.navigator.step(of: last)?.isCompletion == true,
           let body = pages.renderStep(run: record.run, visit: record.run.visits.count - 1, language: visitor.language,
                                       csrfToken: signer.csrfToken(session: visitor.session, run: record.id),
                                       context: answerContext(pages, language: visitor.language)) {
            return html(body, visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        var values: [String: Any] = [:]
        if pages.task.showAnswersOnCompletion == true { values["answersURL"] = "/surveys/\(pages.task.identifier)/answers" }
        return html(pages.renderPage("finished", language: visitor.language, title: words["completedTitle"], values: values), visitor: visitor)
    }

    /// After a run made through the API is completed: a page that sends the participant on to
    /// the researcher's return address at once (a refresh, and a link for browsers without one).
    func returning(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier),
              record.run.finishReason == .completed, let returnURL = record.returnURL else {
            return redirect("/surveys/\(pages.task.identifier)/done", visitor: visitor)
        }
        let words = Catalog(language: visitor.language)
        let body = pages.renderPage("returning", language: visitor.language, title: words["returningTitle"],
                                    values: ["returnURL": returnURL, "refresh": "0; url=" + returnURL])
        return html(body, visitor: visitor)
    }

    /// The answers of the browser's finished run, when the survey offers them.
    func answers(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard pages.task.showAnswersOnCompletion == true, !visitor.isNew,
              let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier),
              record.run.finishReason == .completed else {
            throw HTTPError(.notFound, message: "There are no answers to show here.")
        }
        return html(pages.renderAnswers(run: record.run, language: visitor.language, context: answerContext(pages, language: visitor.language)),
                    visitor: visitor)
    }

    func result(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let visitor = visitor(request, context, pages: pages)
        guard !visitor.isNew, let record = try await store.lastFinishedRecord(session: visitor.session, survey: pages.task.identifier) else {
            throw HTTPError(.notFound, message: "This browser has no finished run of this survey.")
        }
        let result = pages.navigator.result(of: record.run, now: record.updatedAt)
        let zone = pages.navigator.timeZone
        let json = request.uri.queryParameters.get("format") == "researchkit" ? result.researchKitJSON(in: zone) : result.json(in: zone)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: JSONWriter.string(json))))
    }
}

/// The client has started as many runs as it may in the hour.
struct RunStartLimit: Error {}
