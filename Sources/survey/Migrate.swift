import ArgumentParser
import Foundation
import SurveyServer

/// `survey migrate`: creates or updates the store's schema without serving (the server also
/// migrates when it starts, through the same step).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or update the run store's schema.")

    @Option(help: "The SQLite file to migrate.")
    var database = ProcessInfo.processInfo.environment["SURVEY_DATABASE"] ?? "data/runs.sqlite"

    @Option(help: "A postgres:// URL to migrate instead of the SQLite file.")
    var store: String?

    func run() async throws {
        restrictNewFilesToOwner()
        var configuration = ServerConfiguration(databasePath: database)
        configuration.postgresURL = store ?? ProcessInfo.processInfo.environment["SURVEY_STORE"]
        try await migrateStore(configuration: configuration)
        print(configuration.postgresURL == nil ? "\(database): schema is up to date." : "PostgreSQL schema is up to date.")
    }
}
