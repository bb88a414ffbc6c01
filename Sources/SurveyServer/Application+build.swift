import Foundation
import Hummingbird
import JSON
import Logging
import ServiceLifecycle
import SurveyCore
import SurveyRendering
import SurveyStorage

/// Builds the server: surveys and templates loaded and checked, the store opened, routes set;
/// the store's schema is migrated as the server starts, before it accepts a request.
public func buildApplication(configuration: ServerConfiguration, store: (any RunStore)? = nil, metrics: ServerMetrics = ServerMetrics(),
                             clock: @escaping @Sendable () -> Date = { Date() }) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "survey", factory: LineLogHandler.init)
    logger.logLevel = .info
    let catalog = try await SurveyCatalog.load(surveysDirectory: configuration.surveysDirectory,
                                               templatesDirectory: configuration.templatesDirectory,
                                               fhirPackages: configuration.fhirPackagesDirectory,
                                               kiosk: configuration.kiosk.map { KioskTiming(idleAfter: $0.idleAfter, returnAfter: $0.returnAfter) })
    let publicFiles = try PublicFiles.load(folder: configuration.publicDirectory)
    let setup: StoreSetup
    if let store {
        setup = StoreSetup(store: store, services: [])
    } else {
        do {
            setup = try StoreSetup.open(configuration)
        } catch where configuration.postgresURL != nil {
            throw StartupError(messages: ["PostgreSQL at the --store URL cannot be used: \(error)"])
        }
    }
    let runStore = setup.store
    let signer = SessionSigner(secret: try configuration.loadSecret(), lifetime: configuration.sessionLifetime)
    if configuration.publicURL == nil, configuration.trustedProxies.isEmpty {
        logger.warning(
            "Neither --public-url nor --trusted-proxy is set: resume and start links name the address each connection arrived at. Set --public-url to the address participants use.")
    }
    for warning in catalog.warnings { logger.warning("\(warning)") }
    ExpressionFault.logging(to: logger)
    for (token, setting) in [(configuration.apiToken, "--api-token"), (configuration.previewToken, "--preview-token")]
        + configuration.namedAPITokens.sorted(by: { $0.key < $1.key }).map({ (Optional($0.value), "--api-tokens (\($0.key))") }) {
        if let token, let warning = TokenStrength.warning(token, setting: setting) { logger.warning("\(warning)") }
    }
    if let kiosk = configuration.kiosk, kiosk.grace < 20 {
        logger.warning("--kiosk-grace is under 20 seconds: WCAG 2.2.1 asks that a participant have at least 20 seconds to say they are still there.")
    }
    let limits = ParticipantLimits(runsPerHour: configuration.runsPerClientPerHour)
    let router = Router(context: SurveyRequestContext.self)
    let accessLog = configuration.accessLog ? AccessLog() : nil
    router.add(middleware: RequestTimingMiddleware(histogram: metrics.requestDuration, accessLog: accessLog))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: StaticFilesMiddleware(files: publicFiles))
    var runs = RunService(store: runStore, clock: clock, metrics: metrics, resumeLifetime: configuration.resumeLifetime,
                          sendsWebhooks: configuration.webhookURL != nil, runStarts: limits.runStarts)
    runs.webhookFormat = configuration.webhookFormat
    runs.consentCopies = ConsentCopies(catalog: catalog, store: runStore)
    let taking = SurveyTakingController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock)
    taking.addRoutes(to: router)
    let kioskHousekeeping = configuration.kiosk.map { kiosk in
        let ledger = KioskLedger()
        KioskController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock, settings: kiosk,
                        taking: taking, ledger: ledger).addRoutes(to: router)
        return KioskHousekeeping(catalog: catalog, runs: runs, ledger: ledger, settings: kiosk, clock: clock, logger: logger)
    }
    SaveResumeController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock, limits: limits)
        .addRoutes(to: router)
    ResultsController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock).addRoutes(to: router)
    ConsentController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock, limits: limits)
        .addRoutes(to: router)
    if let token = configuration.previewToken {
        let library = PreviewLibrary(paths: [configuration.surveysDirectory], templatesDirectory: configuration.templatesDirectory,
                                     fhirPackages: configuration.fhirPackagesDirectory)
        var preview = PreviewController(library: library, token: token, signer: signer, configuration: configuration, clock: clock)
        preview.auditStore = runStore
        preview.addRoutes(to: router)
    }
    let api = ResearcherAPI(catalog: catalog, runs: runs, tokens: configuration.apiTokens, configuration: configuration)
    api.addRoutes(to: router)
    StaffHistoryController(catalog: catalog, runs: runs, signer: signer, configuration: configuration, clock: clock, api: api)
        .addRoutes(to: router)
    // The dashboard is for researchers: it exists when a preview token or an API token lets them in.
    var dashboardRefresh: DashboardRefresh?
    if configuration.previewToken != nil || !configuration.apiTokens.isEmpty {
        let dashboards = DashboardService(store: runStore, clock: clock)
        DashboardController(catalog: catalog, runs: runs, service: dashboards, signer: signer, api: api,
                            previewToken: configuration.previewToken, clock: clock).addRoutes(to: router)
        dashboardRefresh = DashboardRefresh(service: dashboards, surveys: catalog.surveys.values.map { ($0, runs.timeZone(of: $0.survey)) },
                                            logger: logger)
    }
    OperationsRoutes(store: runStore, metrics: metrics, metricsToken: configuration.metricsToken).addRoutes(to: router)
    // The store's own services (PostgreSQL's client) run for the application's whole life;
    // those that use the store start once its schema is migrated, before the first request.
    let schema = SchemaGate()
    var services: [any Service] = setup.services
    if let accessLog { services.append(AccessLogWriter(log: accessLog)) }
    if let port = configuration.metricsPort {
        services.append(OperationsRoutes.metricsApplication(metrics, host: configuration.metricsHost, port: port,
                                                            token: configuration.metricsToken, logger: logger))
    }
    if let url = configuration.webhookURL, let secret = configuration.webhookSecret {
        var delivery = WebhookDelivery(store: runStore, url: url, secret: secret, clock: clock, logger: logger)
        if configuration.webhookFormat != .json { delivery.contentType = "application/fhir+json" }
        delivery.auditWritesFailed = metrics.auditWritesFailed
        services.append(schema.guarding(delivery))
    }
    if let kioskHousekeeping { services.append(schema.guarding(kioskHousekeeping)) }
    services.append(schema.guarding(AuditAnchoring(store: runStore, clock: clock, logger: logger)))
    if let dashboardRefresh { services.append(schema.guarding(dashboardRefresh)) }
    services.append(schema.guarding(DeletionService.unanswered(configuration.unansweredLifetime, store: runStore, clock: clock, logger: logger)))
    if let retention = configuration.retention {
        services.append(schema.guarding(DeletionService.retention(retention, store: runStore, clock: clock, logger: logger)))
    }
    var app = Application(router: HeadAsGet(router), server: .closingHTTP1(timeouts: configuration.connectionTimeouts),
                          configuration: configuration.httpConfiguration(logger: logger), services: services, logger: logger)
    app.beforeServerStarts {
        do {
            try await runStore.migrate()
        } catch where configuration.postgresURL != nil && store == nil {
            throw StartupError(messages: ["PostgreSQL at the --store URL cannot be used: \(error)"])
        }
        // Each survey's definition as served, so runs made with it still export after the file changes.
        for pages in catalog.surveys.values {
            try await runStore.keepSurveyVersion(survey: pages.task.identifier, version: pages.version,
                                                 definition: JSONWriter.string(pages.task.json, pretty: false))
        }
        schema.open()
    }
    return app
}

extension ServerConfiguration {
    /// Hummingbird's settings: the address, and the cap on open connections past which new
    /// ones are left in the kernel's accept queue until one closes.
    func httpConfiguration(logger: Logger) -> ApplicationConfiguration {
        ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil,
                                 availableConnectionsDelegate: .maximum(maximumConnections, logger: logger))
    }
}

/// `survey preview`: the preview alone, on the given survey files and folders, with no store,
/// no token and no other route; each request reads changed files again. It answers only
/// requests addressed to a loopback name (`PreviewLoopbackHostMiddleware`). A templates or
/// public folder that is missing, or a templates folder that lacks a template, stops the start.
public func buildPreviewApplication(paths: [String], configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    do {
        _ = try ServerTemplates.load(folder: configuration.templatesDirectory)
    } catch {
        throw error.startupError
    }
    let publicFiles = try PublicFiles.load(folder: configuration.publicDirectory)
    var logger = Logger(label: "survey-preview", factory: LineLogHandler.init)
    logger.logLevel = .info
    var generator = SystemRandomNumberGenerator()
    let signer = SessionSigner(secret: Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    ExpressionFault.logging(to: logger)
    let library = PreviewLibrary(paths: paths, templatesDirectory: configuration.templatesDirectory,
                                 fhirPackages: configuration.fhirPackagesDirectory)
    let router = Router(context: SurveyRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: EmptyPageMiddleware())
    router.add(middleware: PreviewLoopbackHostMiddleware())
    router.add(middleware: StaticFilesMiddleware(files: publicFiles))
    router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/preview"]) }
    PreviewController(library: library, token: nil, signer: signer, configuration: configuration, clock: { Date() }).addRoutes(to: router)
    return Application(router: HeadAsGet(router), server: .closingHTTP1(timeouts: configuration.connectionTimeouts),
                       configuration: configuration.httpConfiguration(logger: logger), logger: logger)
}
