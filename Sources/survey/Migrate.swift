import ArgumentParser
import Foundation
import SurveyServer

/// `survey migrate`: creates or updates the store's schema without serving (the server also
/// migrates when it starts, through the same step).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or update the run store's schema.")

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        restrictNewFilesToOwner()
        let settings = try readSettings(storeOptions.given)
        let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(storeSettings: settings) }
        try await migrateStore(configuration: configuration)
        print(configuration.postgresURL == nil ? "\(configuration.resolvedDatabasePath): schema is up to date." : "PostgreSQL schema is up to date.")
    }
}
