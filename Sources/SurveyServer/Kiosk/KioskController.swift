import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A clinic's kiosk: `/kiosk/{survey}` on a shared tablet, handed from patient to patient.
///
/// Staff make the device a kiosk with the PIN (`+Staff`). The start screen then begins a fresh
/// turn with each Start: its own session in its own cookie, never the device's. The turn's
/// steps are the participant's own handlers with a kiosk visitor. A turn idle past its
/// deadline, on any request, ends as the survey's `kioskIdle` says and the start screen comes
/// back; the end pages clear the turn, so no page of it can be reached again.
struct KioskController: ParticipantController {
    let catalog: SurveyCatalog
    let runs: RunService
    let signer: SessionSigner
    let configuration: ServerConfiguration
    let clock: @Sendable () -> Date
    let settings: KioskSettings
    let taking: SurveyTakingController
    /// Turns under way and ended, and devices signed out.
    let ledger: KioskLedger
    /// Wrong PINs, paced per client address or device.
    let pinGuard = SecretGuard()

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/kiosk/:survey") { request, context in try await home(request, context) }
        router.post("/kiosk/:survey") { request, context in
            try await inTurn(request, context) { pages, visitor in try await taking.submit(pages, visitor: visitor, request, context) }
        }
        router.get("/kiosk/:survey/change/:visit") { request, context in
            try await inTurn(request, context) { pages, visitor in try await taking.change(pages, visitor: visitor, context) }
        }
        router.get("/kiosk/:survey/cancel") { request, context in
            try await inTurn(request, context) { pages, visitor in try await taking.cancelPage(pages, visitor: visitor) }
        }
        router.post("/kiosk/:survey/start") { request, context in try await start(request, context) }
        router.get("/kiosk/:survey/idle") { request, context in try await idle(request, context, timingOut: false) }
        router.get("/kiosk/:survey/timeout") { request, context in try await idle(request, context, timingOut: true) }
        router.get("/kiosk/:survey/done") { request, context in try await done(request, context) }
        router.get("/kiosk/:survey/saved") { request, context in try await saved(request, context) }
        router.get("/kiosk/:survey/discarded") { request, context in try await discarded(request, context) }
        router.post("/kiosk/:survey/setup") { request, context in try await setUp(request, context) }
        router.get("/kiosk/:survey/signout") { request, context in try await signOutPage(request, context) }
        router.post("/kiosk/:survey/signout") { request, context in try await signOut(request, context) }
        router.post("/kiosk/:survey/countersign") { request, context in try await countersign(request, context) }
    }

    // MARK: Where a request stands

    /// Where a kiosk request stands.
    enum Standing {
        /// The device is not a kiosk for this survey (or no longer): staff must enter the PIN.
        case notKiosk
        /// A kiosk between participants: the start screen. `clearTurn` when the request
        /// brought a turn that is over (this request ended it, or its cookie is not valid).
        case waiting(KioskDevice, clearTurn: Bool)
        /// A participant's turn under way.
        case turn(KioskDevice, Visitor)
    }

    func standing(_ request: Request, _ context: SurveyRequestContext, pages: SurveyPages) async throws -> Standing {
        let secure = configuration.isSecure(request, context)
        let now = clock()
        guard let value = request.cookie(named: SessionSigner.kioskDeviceCookieName(secure: secure)),
              let device = signer.kioskDevice(fromCookie: value, lifetime: settings.deviceLifetime, now: now),
              device.survey == pages.task.identifier, !ledger.isRevoked(device.device, now: now) else { return .notKiosk }
        guard let turnValue = request.cookie(named: SessionSigner.kioskRunCookieName(secure: secure)) else {
            return .waiting(device, clearTurn: false)
        }
        guard let turn = signer.kioskRun(fromCookie: turnValue, now: now), !ledger.hasEnded(turn.session) else {
            return .waiting(device, clearTurn: true)
        }
        if now.timeIntervalSince(turn.lastSeen) > TimeInterval(settings.idleAfter + settings.grace) {
            try await runs.endAbandonedTurn(pages.survey, session: turn.session, now: now)
            ledger.end(turn.session, now: now)
            return .waiting(device, clearTurn: true)
        }
        ledger.seen(turn.session, survey: pages.task.identifier, now: now)
        // `?lang=` changes the turn's language, which the turn's cookie then keeps.
        let wanted = [request.uri.queryParameters.get("lang"), turn.language].compactMap { $0 }
        let visitor = Visitor(session: turn.session, isNew: false, renewCookie: true, language: pages.language(preferring: wanted),
                              secure: secure, presentation: .kiosk, kioskRun: turn)
        return .turn(device, visitor)
    }

    /// A step of the participant's turn; anything else goes to the start screen.
    private func inTurn(_ request: Request, _ context: SurveyRequestContext,
                        _ handle: (SurveyPages, Visitor) async throws -> Response) async throws -> Response {
        let pages = try survey(context)
        guard case .turn(_, let visitor) = try await standing(request, context, pages: pages) else {
            return toStart(pages, request, context)
        }
        return try await handle(pages, visitor)
    }

    /// A redirect to the start screen that ends the turn the browser still holds.
    func toStart(_ pages: SurveyPages, _ request: Request, _ context: SurveyRequestContext) -> Response {
        var response = redirect(Presentation.kiosk.base(pages.task.identifier))
        clearTurn(&response, secure: configuration.isSecure(request, context))
        return response
    }

    func clearTurn(_ response: inout Response, secure: Bool) {
        response.setPlainCookie(SessionSigner.kioskRunCookieName(secure: secure), "", maxAge: 0, secure: secure)
    }

    // MARK: The start screen and the turn

    /// The PIN form on a device that is not a kiosk yet, the start screen between
    /// participants, and the participant's step during a turn.
    func home(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        switch try await standing(request, context, pages: pages) {
        case .notKiosk:
            return setUpPage(pages, request, context, errorKey: nil, status: .ok)
        case .waiting(let device, let clear):
            var response = startScreen(pages, device: device, request, context)
            if clear { clearTurn(&response, secure: configuration.isSecure(request, context)) }
            return response
        case .turn(_, let visitor):
            return try await taking.show(pages, visitor: visitor)
        }
    }

    private func startScreen(_ pages: SurveyPages, device: KioskDevice, _ request: Request, _ context: SurveyRequestContext) -> Response {
        let language = pages.language(preferring: Self.wantedLanguages(request))
        let several = pages.languages.count > 1
        let starts = pages.languages.map { tag -> [String: Any] in
            let words = Catalog(language: tag)
            var start: [String: Any] = ["lang": tag, "dir": Catalog.isRightToLeft(tag) ? "rtl" : "ltr", "label": words["start"]]
            if several { start["name"] = words["languageName"] }
            return start
        }
        let body = pages.renderPage("kioskStart", language: language, title: pages.texts.plain(pages.task.title, language: language,
                                                                                               fallback: pages.languages) ?? pages.task.identifier,
                                    values: ["csrf": signer.kioskStartToken(device: device), "starts": starts, "chooseLanguage": several, "switcher": false],
                                    presentation: .kiosk)
        return html(body, visitor: nil)
    }

    /// Start: a fresh turn with its own session, in the language whose button was pressed.
    /// A turn the browser still holds (from a page in its history) ends first.
    func start(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        let standing = try await standing(request, context, pages: pages)
        let device: KioskDevice
        switch standing {
        case .notKiosk: return toStart(pages, request, context)
        case .waiting(let waiting, _): device = waiting
        case .turn(let waiting, let visitor):
            device = waiting
            try await runs.endAbandonedTurn(pages.survey, session: visitor.session, now: clock())
            ledger.end(visitor.session, now: clock())
        }
        let fields = try await formFields(request)
        guard let token = fields["_csrf"], constantTimeEqual(token, signer.kioskStartToken(device: device)) else {
            return toStart(pages, request, context)
        }
        let language = pages.language(preferring: fields["lang"].map { [$0] } ?? [])
        let turn = KioskRun(session: SessionSigner.newSessionID(), language: language, lastSeen: clock())
        let visitor = Visitor(session: turn.session, isNew: false, renewCookie: true, language: language,
                              secure: configuration.isSecure(request, context), presentation: .kiosk, kioskRun: turn)
        return redirect(visitor.base(pages), visitor: visitor)
    }

    /// "Are you still there?", which the step page turns into when left idle; after the grace
    /// period it turns into `timeout`, which ends the turn once its deadline has passed. Neither
    /// counts as a request of the participant's: the deadline stays where it was.
    func idle(_ request: Request, _ context: SurveyRequestContext, timingOut: Bool) async throws -> Response {
        let pages = try survey(context)
        guard case .turn(_, let visitor) = try await standing(request, context, pages: pages), let turn = visitor.kioskRun else {
            return toStart(pages, request, context)
        }
        let now = clock()
        let left = Int((turn.lastSeen.timeIntervalSince1970 + TimeInterval(settings.idleAfter + settings.grace) - now.timeIntervalSince1970).rounded(.up))
        if timingOut, left <= 2 {
            try await runs.endAbandonedTurn(pages.survey, session: visitor.session, now: now)
            ledger.end(visitor.session, now: now)
            return toStart(pages, request, context)
        }
        let base = visitor.base(pages)
        let body = pages.renderPage("kioskIdle", language: visitor.language, title: Catalog(language: visitor.language)["kioskIdleTitle"],
                                    values: ["refresh": "\(max(1, min(left, settings.grace))); url=\(base)/timeout", "switcher": false],
                                    presentation: .kiosk)
        return html(body, visitor: nil)
    }

    // MARK: End pages

    /// The thank-you page of a turn's completed run, which returns to the start screen by
    /// itself; the turn is over, so this page cannot be shown again.
    func done(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .turn(let device, let visitor) = try await standing(request, context, pages: pages),
              let record = try await runs.finishedRun(pages.survey, session: visitor.session),
              [.completed, .declined].contains(record.run.finishReason) else {
            return toStart(pages, request, context)
        }
        try await endTurn(visitor, detaching: record)
        if record.run.finishReason == .declined {
            let words = Catalog(language: visitor.language)
            var values = pages.kioskEndValues(language: visitor.language)
            values["heading"] = words["consentDeclinedTitle"]
            values["text"] = words["consentDeclinedText"]
            return endPage(pages.renderPage("message", language: visitor.language, title: words["consentDeclinedTitle"], values: values,
                                            presentation: .kiosk), request, context)
        }
        if let body = consentDone(pages, record: record, device: device, language: visitor.language, request, context) {
            return endPage(body, request, context)
        }
        let answerContext = answerContext(pages, language: visitor.language)
        if let visit = runs.completionVisit(of: record, in: pages.survey),
           let body = pages.renderStep(run: record.run, visit: visit, language: visitor.language,
                                       csrfToken: signer.csrfToken(session: visitor.session, run: record.id), context: answerContext,
                                       presentation: .kiosk) {
            return endPage(body, request, context)
        }
        let body = pages.renderPage("finished", language: visitor.language, title: Catalog(language: visitor.language)["completedTitle"],
                                    values: pages.kioskEndValues(language: visitor.language), presentation: .kiosk)
        return endPage(body, request, context)
    }

    /// After "Save for later" on a kiosk: the resume code alone (no link, no QR code) to write
    /// down and use at `/resume` on one's own device.
    func saved(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .turn(_, let visitor) = try await standing(request, context, pages: pages),
              let record = try await runs.activeRun(pages.survey, session: visitor.session),
              record.savedAt != nil, let code = record.resume?.code else {
            return toStart(pages, request, context)
        }
        try await endTurn(visitor, detaching: record)
        let words = Catalog(language: visitor.language)
        var values = pages.kioskEndValues(language: visitor.language)
        values["resumeCode"] = String(code.prefix(4)) + " " + String(code.suffix(4))
        values["kioskSavedText"] = words["kioskSavedText"].replacingOccurrences(
            of: "%@", with: configuration.absoluteURL("/resume", for: request, context))
        let body = pages.renderPage("saved", language: visitor.language, title: words["savedTitle"], values: values, presentation: .kiosk)
        return endPage(body, request, context)
    }

    /// After "Yes, discard my answers": says so and returns to the start screen by itself.
    func discarded(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        let pages = try survey(context)
        guard case .turn(_, let visitor) = try await standing(request, context, pages: pages) else {
            return toStart(pages, request, context)
        }
        if try await runs.activeRun(pages.survey, session: visitor.session) != nil { return redirect(visitor.base(pages), visitor: visitor) }
        try await endTurn(visitor, detaching: nil)
        let body = pages.renderPage("discarded", language: visitor.language, title: Catalog(language: visitor.language)["discardedTitle"],
                                    values: pages.kioskEndValues(language: visitor.language), presentation: .kiosk)
        return endPage(body, request, context)
    }

    /// The turn of an end page is over: here at once, and on every replica through its run,
    /// which no longer belongs to the turn's session.
    private func endTurn(_ visitor: Visitor, detaching record: RunRecord?) async throws {
        ledger.end(visitor.session, now: clock())
        if let record { try await runs.detachFromTurn(record) }
    }

    /// An end page: shown once, with the turn's cookie cleared.
    private func endPage(_ body: String, _ request: Request, _ context: SurveyRequestContext) -> Response {
        var response = html(body, visitor: nil)
        clearTurn(&response, secure: configuration.isSecure(request, context))
        return response
    }
}
