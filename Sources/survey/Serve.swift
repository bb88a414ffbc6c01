import ArgumentParser
import Foundation
import Hummingbird
import SurveyServer

/// `survey serve`: presents the surveys of a folder as HTML forms, keeping runs in SQLite.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve surveys as accessible HTML forms, with runs kept in the embedded SQLite store.",
        discussion: "Every option can also be set in the environment: SURVEY_HOST, SURVEY_PORT, SURVEY_SURVEYS, SURVEY_DATA, "
            + "SURVEY_DATABASE, SURVEY_TEMPLATES, SURVEY_PUBLIC, SURVEY_SECRET (at least 32 characters), SURVEY_API_TOKEN, "
            + "SURVEY_RESUME_DAYS, SURVEY_TRUSTED_PROXY, SURVEY_SESSION_HOURS, SURVEY_UNANSWERED_HOURS, SURVEY_RUNS_PER_HOUR, "
            + "and those named below."
    )

    @Option(help: "The address to listen on.")
    var host = ProcessInfo.processInfo.environment["SURVEY_HOST"] ?? "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = Int(ProcessInfo.processInfo.environment["SURVEY_PORT"] ?? "") ?? 8080

    @Option(help: "The folder of survey files; the built-in examples by default.")
    var surveys = ProcessInfo.processInfo.environment["SURVEY_SURVEYS"] ?? "Examples"

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "A folder of Mustache templates to use instead of the built-in ones; it must hold every one.")
    var templates: String?

    @Option(name: .customLong("public"), help: "A folder of static files (CSS, images) to serve instead of the built-in ones.")
    var publicFolder: String?

    @Option(help: "The address participants reach the server at, for the resume and start links (default: each request's host).")
    var publicURL: String?

    @Flag(help: "Mark cookies Secure even when requests arrive over plain HTTP.")
    var secureCookies = false

    @Option(help: "The bearer token of the researcher API (at least 16 characters); the API is off without one.")
    var apiToken: String?

    @Option(help: "Open /preview/ (every path of each survey, before anyone answers) to researchers who sign in with this token, at least 16 characters (SURVEY_PREVIEW_TOKEN).")
    var previewToken: String?

    @Option(help: "Post each completed run's result here (SURVEY_WEBHOOK_SECRET signs it).")
    var webhookURL: String?

    @Option(help: "What the webhook posts: json (our event with the result) or fhir (a QuestionnaireResponse).")
    var webhookFormat: String = "json"

    @Option(help: "Delete finished runs this many days after they finished (default: keep them).")
    var retentionDays: Double?

    @Option(help: "Days a saved run's resume code and link stay valid.")
    var resumeDays = Double(ProcessInfo.processInfo.environment["SURVEY_RESUME_DAYS"] ?? "") ?? 30

    @OptionGroup(title: "Sessions, proxies and new runs")
    var sessions: SessionOptions

    @OptionGroup(title: "Slow clients")
    var connections: ConnectionOptions

    @OptionGroup(title: "A clinic's kiosk")
    var kiosk: KioskOptions

    @OptionGroup(title: "Logs and metrics")
    var operations: OperationsOptions

    func run() async throws {
        restrictNewFilesToOwner()
        #if os(Linux)
        // One malloc arena per core rather than eight: threads that come and go (Dispatch's)
        // otherwise each leave an arena of their own half full.
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX in glibc's <malloc.h>
        _ = glibcMallopt(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
        let environment = ProcessInfo.processInfo.environment
        let apiToken = apiToken ?? environment["SURVEY_API_TOKEN"]
        let webhookURL = webhookURL ?? environment["SURVEY_WEBHOOK_URL"]
        let retentionDays = retentionDays ?? environment["SURVEY_RETENTION_DAYS"].flatMap(Double.init)
        var configuration = ServerConfiguration(host: host, port: port, surveysDirectory: surveys, dataDirectory: storeOptions.data,
                                                databasePath: storeOptions.databasePath, templatesDirectory: templates ?? environment["SURVEY_TEMPLATES"],
                                                publicDirectory: publicFolder ?? environment["SURVEY_PUBLIC"],
                                                alwaysSecureCookies: secureCookies)
        if let publicURL = publicURL ?? environment["SURVEY_PUBLIC_URL"] {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--public-url must be an absolute http or https URL.")
            }
            configuration.publicURL = publicURL
        }
        configuration.postgresURL = try storeOptions.postgresURL()
        if let previewToken = previewToken ?? environment["SURVEY_PREVIEW_TOKEN"] {
            guard previewToken.count >= 16 else { throw ValidationError("The preview token must be at least 16 characters.") }
            configuration.previewToken = previewToken
        }
        if let apiToken {
            guard apiToken.count >= 16 else { throw ValidationError("The API token must be at least 16 characters.") }
            configuration.apiToken = apiToken
        }
        guard resumeDays > 0 else { throw ValidationError("--resume-days must be more than 0.") }
        configuration.resumeLifetime = resumeDays * 86_400
        if let webhookURL {
            guard let secret = ProcessInfo.processInfo.environment["SURVEY_WEBHOOK_SECRET"], secret.utf8.count >= 16 else {
                throw ValidationError("--webhook-url needs SURVEY_WEBHOOK_SECRET (at least 16 characters) to sign what it posts.")
            }
            guard let url = URL(string: webhookURL), ["http", "https"].contains(url.scheme ?? "") else {
                throw ValidationError("--webhook-url must be an http or https URL.")
            }
            configuration.webhookURL = webhookURL
            configuration.webhookSecret = Data(secret.utf8)
            guard let format = WebhookFormat(rawValue: webhookFormat) else {
                throw ValidationError("--webhook-format must be json or fhir.")
            }
            configuration.webhookFormat = format
        } else if webhookFormat != "json" {
            throw ValidationError("--webhook-format needs --webhook-url.")
        }
        if let retentionDays {
            guard retentionDays > 0 else { throw ValidationError("--retention-days must be more than 0.") }
            configuration.retention = retentionDays * 86_400
        }
        try sessions.apply(to: &configuration, environment: environment)
        try connections.apply(to: &configuration, environment: environment)
        try operations.apply(to: &configuration, environment: environment)
        try kiosk.apply(to: &configuration, environment: environment)
        if let warning = raiseOpenFileLimit(forConnections: configuration.maximumConnections) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        if let secret = ProcessInfo.processInfo.environment["SURVEY_SECRET"] {
            guard secret.utf8.count >= 32 else { throw ValidationError("SURVEY_SECRET must be at least 32 characters.") }
            configuration.secret = Data(secret.utf8)
        }
        do {
            let app = try await buildApplication(configuration: configuration)
            // SIGTERM waits for a request still arriving (up to the body timeout) and for the
            // answer to be written, and no longer: a client that never reads cannot hold it.
            try await app.runService(drainingAtMost: configuration.bodyTimeout + 30)
        } catch let error as StartupError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}

#if os(Linux)
/// glibc's `mallopt`, which the Glibc module does not export.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
