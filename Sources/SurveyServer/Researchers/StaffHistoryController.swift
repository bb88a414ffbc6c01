import Foundation
import Hummingbird
import JSON
import SurveyCore
import SurveyStorage

/// A run's history in a browser, for staff holding the researcher API's token: a form asks for
/// the run and the token (posted, never in an address), and answers with the history page.
/// Wrong tokens slow their sender down as wrong PINs do (`SecretGuard`), and are recorded.
struct StaffHistoryController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let api: ResearcherAPI
    let tokenGuard = SecretGuard()

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/staff/history") { request, context in form(request, context, run: "", error: nil, status: .ok) }
        router.post("/staff/history") { request, context in try await show(request, context) }
    }

    private func form(_ request: Request, _ context: SurveyRequestContext, run: String, error: (field: String, message: String)?,
                      status: HTTPResponse.Status) -> Response {
        let visitor = visitor(request, context, pages: nil)
        let body = RunHistoryPage.form(csrf: signer.pageToken(session: visitor.session, shownAt: clock()), run: run, error: error)
        return html(body, status: status, visitor: visitor)
    }

    private func show(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let visitor = visitor(request, context, pages: nil)
        let fields = try await formFields(request)
        let now = clock()
        guard !visitor.isNew, signer.checkPageToken(fields["_csrf"], session: visitor.session, now: now) != nil else {
            return form(request, context, run: "", error: nil, status: .forbidden)
        }
        let typedRun = (fields["run"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !api.tokens.isEmpty else {
            return form(request, context, run: typedRun, error: ("token", "The researcher API is off on this server: there is no token to check."),
                        status: .serviceUnavailable)
        }
        let client = clientKey(request, context)
        guard case .check(let reservedAt) = await tokenGuard.reserve(client, now: now, what: "API tokens", logger: context.logger) else {
            return form(request, context, run: typedRun, error: ("token", "Too many wrong tokens: wait a minute and try again."),
                        status: .tooManyRequests)
        }
        guard let actor = api.actor(bearing: fields["token"] ?? "") else {
            await runs.recordRefusal("history.tokenRefused", by: .system("staff"))
            return form(request, context, run: typedRun, error: ("token", "This is not one of the API's tokens."), status: .unprocessableContent)
        }
        await tokenGuard.release(client, reservedAt: reservedAt)
        guard let id = UUID(uuidString: typedRun) else {
            return form(request, context, run: typedRun, error: ("run", "Enter a run's identifier, such as the API gives."),
                        status: .unprocessableContent)
        }
        let entries: [AuditEntry]?
        do {
            entries = try await runs.history(of: id, by: actor)
        } catch is AuditUnwritten {
            throw HTTPError(.serviceUnavailable)
        }
        guard let entries else {
            return form(request, context, run: typedRun, error: ("run", "The audit log holds nothing about this run."), status: .notFound)
        }
        return html(RunHistoryPage(run: id, entries: entries).html, visitor: visitor)
    }
}
