import ArgumentParser
import Foundation
import SurveyStorage

/// `survey migrate`: creates or updates the store's schema without serving (the server also
/// migrates when it starts).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or update the run store's schema.")

    @Option(help: "The SQLite file to migrate.")
    var database = ProcessInfo.processInfo.environment["SURVEY_DATABASE"] ?? "data/runs.sqlite"

    @Option(help: "A postgres:// URL to migrate instead of the SQLite file.")
    var store: String?

    func run() async throws {
        restrictNewFilesToOwner()
        if let store = store ?? ProcessInfo.processInfo.environment["SURVEY_STORE"] {
            _ = try await PostgresRunStore(url: store)
            print("PostgreSQL schema is up to date.")
        } else {
            _ = try SQLiteRunStore(path: database)
            print("\(database): schema is up to date.")
        }
    }
}
