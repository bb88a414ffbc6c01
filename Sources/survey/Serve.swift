import ArgumentParser
import Foundation
import Hummingbird
import SurveyServer

/// `survey serve`: presents the surveys of a folder as HTML forms, keeping runs in SQLite.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve surveys as accessible HTML forms, with runs kept in the embedded SQLite store.",
        discussion: "Every setting comes from its flag, else its environment variable, else the config file (--config, SURVEY_CONFIG), "
            + "else its default; each option's help names its variable and its config key. SURVEY_SECRET (at least 32 characters) and "
            + "SURVEY_WEBHOOK_SECRET are read from the environment or the config file only. A value that cannot be used stops the start."
    )

    @Option(help: .init(Setting.host.help)) var host: String?
    @Option(help: .init(Setting.port.help)) var port: String?
    @Option(help: .init(Setting.surveys.help)) var surveys: String?
    @Option(help: .init(Setting.fhirPackages.help)) var fhirPackages: String?
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: .init(Setting.templates.help)) var templates: String?
    @Option(name: .customLong("public"), help: .init(Setting.publicFolder.help)) var publicFolder: String?
    @Option(help: .init(Setting.publicURL.help)) var publicURL: String?
    @Flag(help: .init(Setting.secureCookies.help)) var secureCookies = false
    @Option(help: .init(Setting.apiToken.help)) var apiToken: String?
    @Option(help: .init(Setting.previewToken.help)) var previewToken: String?
    @Option(help: .init(Setting.webhookURL.help)) var webhookURL: String?
    @Option(help: .init(Setting.webhookFormat.help)) var webhookFormat: String?
    @Option(help: .init(Setting.retentionDays.help)) var retentionDays: String?
    @Option(help: .init(Setting.resumeDays.help)) var resumeDays: String?

    @OptionGroup(title: "Sessions, proxies and new runs")
    var sessions: SessionOptions

    @OptionGroup(title: "Slow clients")
    var connections: ConnectionOptions

    @OptionGroup(title: "A clinic's kiosk")
    var kiosk: KioskOptions

    @OptionGroup(title: "Logs and metrics")
    var operations: OperationsOptions

    /// Every flag given, keyed by its setting's config key.
    var given: [String: String] {
        flags([(.host, host), (.port, port), (.surveys, surveys), (.fhirPackages, fhirPackages), (.templates, templates), (.publicFolder, publicFolder),
               (.publicURL, publicURL), (.secureCookies, secureCookies ? "true" : nil), (.apiToken, apiToken),
               (.previewToken, previewToken), (.webhookURL, webhookURL), (.webhookFormat, webhookFormat),
               (.retentionDays, retentionDays), (.resumeDays, resumeDays)])
            .merging(storeOptions.given) { $1 }.merging(sessions.given) { $1 }.merging(connections.given) { $1 }
            .merging(kiosk.given) { $1 }.merging(operations.given) { $1 }
    }

    func run() async throws {
        restrictNewFilesToOwner()
        #if os(Linux)
        // One malloc arena per core rather than eight: threads that come and go (Dispatch's)
        // otherwise each leave an arena of their own half full.
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX in glibc's <malloc.h>
        _ = glibcMallopt(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
        let settings = try readSettings(given)
        let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(settings: settings) }
        if let warning = raiseOpenFileLimit(forConnections: configuration.maximumConnections) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
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
