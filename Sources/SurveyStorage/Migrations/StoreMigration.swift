import Foundation

/// One step of a store's schema: numbered in the order the steps run, named for what it does.
///
/// Each store lists its steps in one file (`SQLiteRunStore+Migrations`,
/// `PostgresRunStore+Migrations`) and records each step it applies, by number and name, in its
/// table `schema_migrations`, in the transaction that applies it: a step runs once per
/// database, and a database made by any earlier version is brought forward by the steps it has
/// not had. A step, once released, is never edited; a change to the schema is a new step at
/// the end. Both stores name tables and columns alike, in lower case with underscores.
struct StoreMigration<Step>: Sendable where Step: Sendable {
    let number: Int
    let name: String
    let step: Step

    init(_ number: Int, _ name: String, _ step: Step) {
        self.number = number
        self.name = name
        self.step = step
    }

    /// Why `migrations` cannot be a store's list, if it cannot: numbers from 1 up with none
    /// missing, names unique.
    static func problem(in migrations: [StoreMigration]) -> String? {
        for (position, migration) in migrations.enumerated() where migration.number != position + 1 {
            return "migration \(migration.number) (\(migration.name)) is at place \(position + 1)"
        }
        let names = migrations.map(\.name)
        if Set(names).count != names.count { return "two migrations share a name" }
        return nil
    }
}

/// The ledger's table, the same in both stores.
enum MigrationLedger {
    static let create = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)
        """
}
