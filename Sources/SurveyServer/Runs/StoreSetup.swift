import Foundation
import Logging
import ServiceLifecycle
import SurveyStorage

/// The run store a configuration names, with the services it needs running: PostgreSQL's
/// client serves queries only while it runs, so it is a service of the application's group
/// (or of `survey migrate`'s), not something the store runs for itself.
struct StoreSetup {
    let store: any RunStore
    let services: [any Service]

    /// Opens the store: PostgreSQL when the configuration has a `--store` URL, else the SQLite
    /// file. Nothing is migrated yet.
    static func open(_ configuration: ServerConfiguration) throws -> StoreSetup {
        if let url = configuration.postgresURL {
            let store = try PostgresRunStore(url: url)
            return StoreSetup(store: store, services: [store.client])
        }
        if configuration.databasePath == nil { try configuration.makeDataFolder() }
        return StoreSetup(store: try SQLiteRunStore(path: configuration.resolvedDatabasePath), services: [])
    }
}

/// `survey migrate`: creates or updates the schema of the store the configuration names, with
/// the store's services running for as long as that takes, then stops them.
public func migrateStore(configuration: ServerConfiguration) async throws {
    var logger = Logger(label: "survey", factory: LineLogHandler.init)
    logger.logLevel = .warning
    let setup = try StoreSetup.open(configuration)
    let migration = OneShotService { try await setup.store.migrate() }
    let services = setup.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        + [ServiceGroupConfiguration.ServiceConfiguration(service: migration, successTerminationBehavior: .gracefullyShutdownGroup)]
    try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger)).run()
}

/// A piece of work run once as a service, so the services it needs run beside it.
struct OneShotService: Service {
    let work: @Sendable () async throws -> Void

    func run() async throws {
        try await work()
    }
}
