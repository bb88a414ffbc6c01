import ArgumentParser
import Foundation
import SurveyServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The option groups of `survey serve` and the store options `export` and `migrate` share. Each
// option is text, with no default of its own, so that a flag left out lets the environment,
// then the config file, then the default speak (SettingsReader), and every value, from
// wherever it came, goes through the same check and the same message.

/// `survey serve`'s limits on slow and numerous clients.
struct ConnectionOptions: ParsableArguments {
    @Option(help: .init(Setting.headerTimeout.help)) var headerTimeout: String?
    @Option(help: .init(Setting.bodyTimeout.help)) var bodyTimeout: String?
    @Option(help: .init(Setting.idleTimeout.help)) var idleTimeout: String?
    @Option(help: .init(Setting.maxConnections.help)) var maxConnections: String?

    var given: [String: String] {
        flags([(.headerTimeout, headerTimeout), (.bodyTimeout, bodyTimeout), (.idleTimeout, idleTimeout), (.maxConnections, maxConnections)])
    }
}

/// `survey serve`'s access log and `/metrics`.
struct OperationsOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: .init(Setting.accessLog.help)) var accessLog: Bool?
    @Option(help: .init(Setting.metricsPort.help)) var metricsPort: String?
    @Option(help: .init(Setting.metricsHost.help)) var metricsHost: String?
    @Option(help: .init(Setting.metricsToken.help)) var metricsToken: String?

    var given: [String: String] {
        flags([(.accessLog, accessLog.map(String.init)), (.metricsPort, metricsPort), (.metricsHost, metricsHost), (.metricsToken, metricsToken)])
    }
}

/// `survey serve`'s trusted proxies, session lifetime, deletion of unanswered runs and limit on new runs.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("trusted-proxy"), help: .init(Setting.trustedProxy.help)) var trustedProxies: [String] = []
    @Option(help: .init(Setting.sessionHours.help)) var sessionHours: String?
    @Option(help: .init(Setting.unansweredHours.help)) var unansweredHours: String?
    @Option(help: .init(Setting.runsPerHour.help)) var runsPerHour: String?

    var given: [String: String] {
        flags([(.trustedProxy, trustedProxies.isEmpty ? nil : trustedProxies.joined(separator: ",")), (.sessionHours, sessionHours),
               (.unansweredHours, unansweredHours), (.runsPerHour, runsPerHour)])
    }
}

/// A clinic's kiosk mode: on with a PIN.
struct KioskOptions: ParsableArguments {
    @Option(help: .init(Setting.kioskPin.help)) var kioskPin: String?
    @Option(help: .init(Setting.kioskHours.help)) var kioskHours: String?
    @Option(help: .init(Setting.kioskReturn.help)) var kioskReturn: String?
    @Option(help: .init(Setting.kioskIdle.help)) var kioskIdle: String?
    @Option(help: .init(Setting.kioskGrace.help)) var kioskGrace: String?

    var given: [String: String] {
        flags([(.kioskPin, kioskPin), (.kioskHours, kioskHours), (.kioskReturn, kioskReturn), (.kioskIdle, kioskIdle), (.kioskGrace, kioskGrace)])
    }
}

/// Where runs are kept, for the commands that open the store (`serve`, `export`, `migrate`):
/// the data folder and its SQLite file, or a PostgreSQL URL; and the config file they may be
/// read from.
struct StoreOptions: ParsableArguments {
    @Option(help: .init(Setting.config.help)) var config: String?
    @Option(help: .init(Setting.data.help)) var data: String?
    @Option(help: .init(Setting.database.help)) var database: String?
    @Option(help: .init(Setting.store.help)) var store: String?

    var given: [String: String] {
        flags([(.config, config), (.data, data), (.database, database), (.store, store)])
    }
}

/// The flags given, keyed by their settings' config keys, for SettingsReader.
func flags(_ pairs: [(Setting, String?)]) -> [String: String] {
    var given: [String: String] = [:]
    for case let (setting, value?) in pairs { given[setting.key] = value }
    return given
}

/// The settings of a command: the flags given over the environment over the config file, or
/// the sentence that says which setting cannot be used, and an exit status of 64.
func readSettings(_ given: [String: String]) throws -> SettingsReader {
    try orExit { () throws(SettingError) in try SettingsReader.load(flags: given, environment: ProcessInfo.processInfo.environment) }
}

/// `try read(settings)` for a command: a setting that cannot be used is printed and ends it.
func orExit<Value>(_ read: () throws(SettingError) -> Value) throws -> Value {
    do {
        return try read()
    } catch {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        throw ExitCode.validationFailure
    }
}

/// Files and folders the process creates from now on are its owner's alone (the database,
/// its journal files, the cookie secret), from the moment they exist.
func restrictNewFilesToOwner() {
    umask(0o077)
}

/// Raises the soft limit on open files to what the connection cap needs, with room for the
/// database, the logs and the listening sockets, as far as the hard limit allows. Returns a
/// warning when the hard limit is lower, since connections past it would fail to be accepted.
func raiseOpenFileLimit(forConnections connections: Int) -> String? {
    var limit = rlimit()
    #if os(Linux)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return nil }
    let wanted = rlim_t(connections + 256)
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(resource, &limit)
    }
    guard limit.rlim_cur < wanted else { return nil }
    return "warning: --max-connections \(connections) needs about \(wanted) open files, and this process may open only "
        + "\(limit.rlim_cur): lower --max-connections or raise the limit (ulimit -n, LimitNOFILE=, docker --ulimit nofile=)."
}
