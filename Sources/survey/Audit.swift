import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyServer
import SurveyStorage

/// `survey audit verify` and `survey audit export`: the audit log of the store the options name.
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the audit log's chains, or export its entries.",
        subcommands: [Verify.self, Export.self]
    )

    /// A SQLite store must exist: reading its log does not make an empty one.
    static func requireStore(_ configuration: ServerConfiguration) throws {
        guard configuration.postgresURL == nil, !FileManager.default.fileExists(atPath: configuration.resolvedDatabasePath) else { return }
        throw ValidationError("There is no database at \(configuration.resolvedDatabasePath); name it with --database or --data.")
    }

    /// `survey audit verify`: walks every chain and names the first entry altered, removed or inserted.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every entry of the audit log and print the head to keep elsewhere.",
            discussion: """
                Exits with status 1 and names each entry that was altered, removed or inserted. \
                With --anchor it first appends an anchor that records the last entry of every \
                chain, so the head it prints covers the whole log as it is now. Keep that line \
                (anchor number and hash) elsewhere; a later run with --expect-head NUMBER:HASH \
                proves the log then and now agree.
                """
        )

        @Flag(help: "Append an anchor covering every chain first (the store must be writable).")
        var anchor = false

        @Option(help: "An anchor's number and hash printed by an earlier verify, as NUMBER:HASH; verify fails unless it still holds.")
        var expectHead: String?

        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if let expectHead, Self.head(expectHead) == nil {
                throw ValidationError("--expect-head must be NUMBER:HASH as verify printed it, such as 12:3fa9…")
            }
        }

        static func head(_ text: String) -> AuditHead? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let seq = Int(parts[0]), seq > 0, parts[1].count == 64,
                  parts[1].allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
            return AuditHead(seq: seq, hash: String(parts[1]))
        }

        func run() async throws {
            let settings = try readSettings(storeOptions.given)
            let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(storeSettings: settings) }
            try Audit.requireStore(configuration)
            let expected = expectHead.flatMap(Self.head)
            let anchor = anchor
            let failed = FailureMark()
            try await usingStore(configuration) { store in
                if anchor { _ = try await store.anchorAudit(everything: true, now: Date(), by: .system("command line")) }
                let verifier = try await store.verifyAudit()
                var lines = ["Checked \(verifier.entries) entries in \(verifier.chains) chains."]
                if let expected {
                    let kept = try await store.auditChainEntries(after: AuditPlace(chain: AuditEntry.anchorChain, seq: expected.seq - 1),
                                                                 chain: AuditEntry.anchorChain, limit: 1).first
                    if kept?.seq != expected.seq || kept?.hash != expected.hash {
                        lines.append("The head \(expected.seq):\(expected.hash) kept earlier is not in the log as it was: the log was rewritten.")
                        failed.set()
                    } else {
                        lines.append("The head \(expected.seq):\(expected.hash) kept earlier still holds.")
                    }
                }
                if let first = verifier.problems.first {
                    lines.append("The log does not verify: \(verifier.problems.count) problem\(verifier.problems.count == 1 ? "" : "s"); the first:")
                    lines.append("  \(first)")
                    for problem in verifier.problems.dropFirst().prefix(19) { lines.append("  \(problem)") }
                    failed.set()
                } else {
                    lines.append("Every chain verifies.")
                }
                if let head = verifier.lastAnchor {
                    lines.append("Head: \(head.seq):\(head.hash)")
                } else {
                    lines.append("No anchor yet: run with --anchor to make one.")
                }
                print(lines.joined(separator: "\n"))
            }
            if failed.isSet { throw ExitCode.failure }
        }
    }

    /// `survey audit export`: entries as JSON Lines, oldest first.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the audit log's entries as JSON Lines, oldest first.",
            discussion: "Each line is one entry: chain, seq, at (UTC), actor, action, survey, run, detail, content (absent once erased), hashes."
        )

        @Option(help: "Only entries about this run.")
        var run: String?

        @Option(help: "Only entries at or after this ISO 8601 date or date-time.")
        var since: String?

        @Option(help: "Write to this file instead of standard output.")
        var output: String?

        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if let run, UUID(uuidString: run) == nil { throw ValidationError("--run must be a run's identifier (a UUID).") }
            if let since, DateTimeParsing.instant(since, defaultZone: TimeZone(identifier: "UTC")!) == nil {
                throw ValidationError("--since must be an ISO 8601 date or date-time, such as 2026-11-01 or 2026-11-01T09:00:00Z.")
            }
        }

        func run() async throws {
            restrictNewFilesToOwner()
            let settings = try readSettings(storeOptions.given)
            let configuration = try orExit { () throws(SettingError) in try ServerConfiguration(storeSettings: settings) }
            try Audit.requireStore(configuration)
            let query = AuditQuery(run: run.flatMap(UUID.init(uuidString:)),
                                   since: since.flatMap { DateTimeParsing.instant($0, defaultZone: TimeZone(identifier: "UTC")!) })
            let sink = try OutputSink(path: output)
            try await usingStore(configuration) { store in
                try await store.appendAudit([AuditEvent("audit.exported", by: .system("command line"), at: Date(), run: query.run,
                                                        detail: .object(["since": self.since.map(JSONValue.string)]))],
                                            chain: AuditEntry.accessChain)
                try await store.forEachAuditEntry(query) { entry in try sink.write(JSONWriter.string(entry.json, pretty: false) + "\n") }
            }
            try sink.close()
        }
    }
}

/// A flag set from inside a task, read after it.
final class FailureMark: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
