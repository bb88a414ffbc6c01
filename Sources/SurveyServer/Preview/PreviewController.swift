import Foundation
import Hummingbird
import JSON
import Mustache
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A researcher's preview of surveys: `/preview/` lists them with the checker's messages,
/// `/preview/{survey}` maps every step and rule, and `/preview/{survey}/steps/{step}` jumps to a
/// step with answers that lead there, shown as a participant sees it beside a panel that says
/// why. Preview runs live in a store in memory of their own: they never reach the server's
/// store, an export, the API or the webhook. Behind a token on a deployed server (`+SignIn`).
struct PreviewController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let library: PreviewLibrary
    /// The token researchers sign in with; nil for `survey preview`, which serves loopback only.
    let token: String?
    let taking: SurveyTakingController
    let signInGuard = SecretGuard()
    /// The served store, whose audit log records sign-ins and refused tokens; nil for `survey preview`.
    var auditStore: (any RunStore)?

    init(library: PreviewLibrary, token: String?, signer: SessionSigner, configuration: ServerConfiguration,
         clock: @escaping @Sendable () -> Date) {
        self.library = library
        self.token = token
        self.signer = signer
        self.configuration = configuration
        self.clock = clock
        catalog = SurveyCatalog(surveys: [:], library: MustacheLibrary())
        runs = RunService(store: PreviewRunStore(), clock: clock, metrics: ServerMetrics(), resumeLifetime: 3600, sendsWebhooks: false,
                          runStarts: nil)
        var taking = SurveyTakingController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock)
        taking.panel = { pages, run, visit in Self.panel(pages, run: run, visit: visit, now: clock()) }
        self.taking = taking
    }

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/preview") { request, context in try await guarded(request, context) { try await index(request, context) } }
        router.get("/preview/sign-in") { request, context in await signInPage(request, context, errorKey: nil, status: .ok) }
        router.post("/preview/sign-in") { request, context in try await signIn(request, context) }
        router.get("/preview/:survey") { request, context in try await guarded(request, context) { try await map(request, context) } }
        router.get("/preview/:survey/steps/:step") { request, context in
            try await guarded(request, context) { try await jump(request, context) }
        }
        router.get("/preview/:survey/run") { request, context in
            try await inRun(request, context) { pages, visitor in try await taking.show(pages, visitor: visitor) }
        }
        router.post("/preview/:survey/run") { request, context in
            try await inRun(request, context) { pages, visitor in try await taking.submit(pages, visitor: visitor, request, context) }
        }
        router.get("/preview/:survey/run/change/:visit") { request, context in
            try await inRun(request, context) { pages, visitor in
                // A run that has ended is opened again at the visit, to change it there.
                if !visitor.isNew, let visit = context.parameters.get("visit", as: Int.self),
                   try await runs.reopen(pages.survey, session: visitor.session, at: visit, now: clock()) {
                    return redirect(visitor.base(pages), visitor: visitor)
                }
                return try await taking.change(pages, visitor: visitor, context)
            }
        }
        router.get("/preview/:survey/run/cancel") { request, context in
            try await inRun(request, context) { pages, visitor in try await taking.cancelPage(pages, visitor: visitor) }
        }
        for end in ["done", "saved", "discarded", "return"] {
            router.get("/preview/:survey/run/\(end)") { request, context in
                try await inRun(request, context) { pages, visitor in try await ended(pages, visitor: visitor) }
            }
        }
    }

    // MARK: Pages

    /// Every survey with its errors and warnings; a file with errors is listed with them.
    func index(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let entries = await library.current()
        let rows = entries.map { entry -> [String: Any] in
            let errors = entry.diagnostics.filter(\.isError).map { ["path": $0.path.description, "message": $0.message] }
            let warnings = entry.diagnostics.filter { !$0.isError }.map { ["path": $0.path.description, "message": $0.message] }
            let title = entry.pages.flatMap { $0.texts.plain($0.task.title, language: $0.languages[0]) } ?? entry.identifier
            return [
                "identifier": entry.identifier, "title": title, "file": entry.file, "openable": entry.pages != nil,
                "errors": errors, "hasErrors": !errors.isEmpty, "warnings": warnings, "hasWarnings": !warnings.isEmpty,
                "removed": entry.removedMarkup, "hasRemoved": !entry.removedMarkup.isEmpty,
                "clean": errors.isEmpty && warnings.isEmpty && entry.removedMarkup.isEmpty,
                // On a deployed server, the survey's dashboard beside its map.
                "dashboard": token != nil && entry.pages != nil,
            ]
        }
        var values: [String: Any] = ["entries": rows, "hasEntries": !rows.isEmpty]
        if let problem = await library.templateProblem { values["templateProblem"] = problem }
        guard let mustache = await library.mustache else {
            return html(PreviewChrome.plainPage(PreviewChrome["templateProblem"], text: await library.templateProblem ?? ""), visitor: nil)
        }
        return html(PreviewChrome.renderPage("previewIndex", title: PreviewChrome["surveys"], values: values, library: mustache), visitor: nil)
    }

    /// The survey of the address, if it loads without errors; else the list, which shows why.
    func previewed(_ context: SurveyRequestContext) async throws -> SurveyPages? {
        guard let identifier = context.parameters.get("survey") else { throw PageError(.notFound, "errorNoSurvey") }
        guard let entry = await library.entry(identifier) else { throw PageError(.notFound, "errorNoSurvey") }
        return entry.pages
    }

    /// A step of the preview run; with no run, the survey's first page.
    private func inRun(_ request: Request, _ context: SurveyRequestContext,
                       _ handle: (SurveyPages, Visitor) async throws -> Response) async throws -> Response {
        try await guarded(request, context) {
            guard let pages = try await previewed(context) else { return redirect("/preview") }
            var visitor = visitor(request, context, pages: pages)
            visitor.presentation = .preview
            return try await handle(pages, visitor)
        }
    }

    /// Where a preview run ends: the completion step it ended on, beside its panel; else a page
    /// that says nothing of it is kept and leads to the map.
    func ended(_ pages: SurveyPages, visitor: Visitor) async throws -> Response {
        if !visitor.isNew, let record = try await runs.finishedRun(pages.survey, session: visitor.session),
           let visit = runs.completionVisit(of: record, in: pages.survey),
           let body = pages.renderStep(run: record.run, visit: visit, language: visitor.language,
                                       csrfToken: signer.csrfToken(session: visitor.session, run: record.id),
                                       context: answerContext(pages, language: visitor.language), presentation: .preview,
                                       panel: Self.panel(pages, run: record.run, visit: visit, now: clock())) {
            return html(body, visitor: visitor)
        }
        let body = pages.renderPreviewPage("message", title: PreviewChrome["finishedTitle"], values: [
            "heading": PreviewChrome["finishedTitle"], "text": PreviewChrome["finishedText"],
        ])
        return html(body, visitor: visitor)
    }

    /// The panel beside a preview step.
    static func panel(_ pages: SurveyPages, run: TaskRun, visit: Int, now: Date) -> String {
        let context = AnswerContext(language: pages.languages[0], now: now, timeZone: pages.navigator.timeZone)
        let explained = PreviewExplanation(pages: pages)
        return pages.renderPreviewPanel(run: run, visit: visit, why: explained.why(run, visit: visit),
                                        skipped: explained.skipped(run, visit: visit), context: context)
    }
}
