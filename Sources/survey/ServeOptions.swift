import ArgumentParser
import Foundation
import SurveyServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `survey serve`'s limits on slow and numerous clients.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Seconds from a request's first byte to the end of its head; a slower client gets 408 (SURVEY_HEADER_TIMEOUT, 10).")
    var headerTimeout: Double?

    @Option(help: "Seconds from the end of a request's head to the end of its body (SURVEY_BODY_TIMEOUT, 30).")
    var bodyTimeout: Double?

    @Option(help: "Seconds a kept-alive connection may wait for its next request (SURVEY_IDLE_TIMEOUT, 60).")
    var idleTimeout: Double?

    @Option(help: "Connections open at once; more wait to be accepted until one closes (SURVEY_MAX_CONNECTIONS, 4096).")
    var maxConnections: Int?

    func apply(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        configuration.headerTimeout = try seconds(headerTimeout, "header-timeout", environment) ?? configuration.headerTimeout
        configuration.bodyTimeout = try seconds(bodyTimeout, "body-timeout", environment) ?? configuration.bodyTimeout
        configuration.idleTimeout = try seconds(idleTimeout, "idle-timeout", environment) ?? configuration.idleTimeout
        if let text = maxConnections.map(String.init) ?? environment["SURVEY_MAX_CONNECTIONS"] {
            guard let count = Int(text), count > 0 else {
                throw ValidationError("--max-connections must be a whole number more than 0, not \(text).")
            }
            configuration.maximumConnections = count
        }
    }

    /// A flag's value, else its environment variable's, checked to be a positive number of seconds.
    private func seconds(_ given: Double?, _ flag: String, _ environment: [String: String]) throws -> Double? {
        let variable = "SURVEY_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
        guard let text = given.map({ String($0) }) ?? environment[variable] else { return nil }
        guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
            throw ValidationError("--\(flag) must be a number of seconds more than 0 and at most 86400, not \(text).")
        }
        return value
    }
}

/// `survey serve`'s access log and `/metrics`.
struct OperationsOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: "Write a line per request to standard output: method, route, status, duration (SURVEY_ACCESS_LOG=0 turns it off).")
    var accessLog: Bool?

    @Option(help: "Serve /metrics on this port of --metrics-host (SURVEY_METRICS_PORT).")
    var metricsPort: Int?

    @Option(help: "The address of the metrics port (SURVEY_METRICS_HOST, 127.0.0.1).")
    var metricsHost: String?

    @Option(help: "Serve /metrics on the main port too, to requests with 'Authorization: Bearer <token>' (SURVEY_METRICS_TOKEN, at least 16 characters).")
    var metricsToken: String?

    func apply(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        configuration.accessLog = accessLog ?? !["0", "false", "no", "off"].contains(environment["SURVEY_ACCESS_LOG"]?.lowercased() ?? "")
        if let text = metricsPort.map(String.init) ?? environment["SURVEY_METRICS_PORT"] {
            guard let port = Int(text), (1...65_535).contains(port) else {
                throw ValidationError("--metrics-port must be a port number from 1 to 65535, not \(text).")
            }
            guard port != configuration.port else { throw ValidationError("--metrics-port must differ from --port.") }
            configuration.metricsPort = port
        }
        if let host = metricsHost ?? environment["SURVEY_METRICS_HOST"] {
            guard !host.isEmpty else { throw ValidationError("--metrics-host must not be empty.") }
            configuration.metricsHost = host
        }
        if let token = metricsToken ?? environment["SURVEY_METRICS_TOKEN"] {
            guard token.count >= 16 else { throw ValidationError("The metrics token must be at least 16 characters.") }
            configuration.metricsToken = token
        }
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

/// `survey serve`'s trusted proxies, session lifetime, deletion of unanswered runs and limit on new runs.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("trusted-proxy"),
            help: "A reverse proxy (address or CIDR range, repeatable or comma-separated) whose X-Forwarded-For, -Proto and -Host are believed (SURVEY_TRUSTED_PROXY).")
    var trustedProxies: [String] = []

    @Option(help: "Hours a session lives without a request (SURVEY_SESSION_HOURS, 24).")
    var sessionHours: Double?

    @Option(help: "Hours after which a run started but never answered is deleted (SURVEY_UNANSWERED_HOURS, 6).")
    var unansweredHours: Double?

    @Option(help: "Runs one client address may start in an hour; 0 for no limit (SURVEY_RUNS_PER_HOUR, 300).")
    var runsPerHour: Int?

    func apply(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        let proxies = (trustedProxies.isEmpty ? [environment["SURVEY_TRUSTED_PROXY"] ?? ""] : trustedProxies)
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            configuration.trustedProxies = try TrustedProxies(proxies)
        } catch {
            throw ValidationError("--trusted-proxy: \(error)")
        }
        if let hours = sessionHours ?? environment["SURVEY_SESSION_HOURS"].flatMap(Double.init) {
            guard hours > 0 else { throw ValidationError("--session-hours must be more than 0.") }
            configuration.sessionLifetime = hours * 3600
        }
        if let hours = unansweredHours ?? environment["SURVEY_UNANSWERED_HOURS"].flatMap(Double.init) {
            guard hours > 0 else { throw ValidationError("--unanswered-hours must be more than 0.") }
            configuration.unansweredLifetime = hours * 3600
        }
        if let limit = runsPerHour ?? environment["SURVEY_RUNS_PER_HOUR"].flatMap({ Int($0) }) {
            guard limit >= 0 else { throw ValidationError("--runs-per-hour must be 0 (no limit) or more.") }
            configuration.runsPerClientPerHour = limit == 0 ? nil : limit
        }
    }
}

/// A clinic's kiosk mode: on with a PIN.
struct KioskOptions: ParsableArguments {
    @Option(help: "Turn on /kiosk/{survey}: the PIN staff enter to make a device a kiosk, 6 digits or more (SURVEY_KIOSK_PIN).")
    var kioskPin: String?

    @Option(help: "Hours a device stays a kiosk once staff set it up (SURVEY_KIOSK_HOURS, 12).")
    var kioskHours: Double?

    @Option(help: "Seconds an end page shows before the start screen returns (SURVEY_KIOSK_RETURN, 15).")
    var kioskReturn: Int?

    @Option(help: "Seconds without a request before a step asks \"Are you still there?\" (SURVEY_KIOSK_IDLE, 120).")
    var kioskIdle: Int?

    @Option(help: "Seconds \"Are you still there?\" waits before the run ends per the survey's kioskIdle (SURVEY_KIOSK_GRACE, 30).")
    var kioskGrace: Int?

    func apply(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        guard let pin = kioskPin ?? environment["SURVEY_KIOSK_PIN"] else {
            if kioskHours != nil || kioskReturn != nil || kioskIdle != nil || kioskGrace != nil {
                throw ValidationError("The --kiosk-… options need --kiosk-pin (or SURVEY_KIOSK_PIN).")
            }
            return
        }
        guard KioskSettings.isValidPIN(pin) else { throw ValidationError("The kiosk PIN must be 6 digits or more, and digits only.") }
        var settings = KioskSettings(pin: pin)
        if let hours = kioskHours ?? environment["SURVEY_KIOSK_HOURS"].flatMap(Double.init) {
            guard hours > 0, hours <= 24 * 31 else { throw ValidationError("--kiosk-hours must be more than 0 and at most 744.") }
            settings.deviceLifetime = hours * 3600
        }
        settings.returnAfter = try seconds(kioskReturn, "kiosk-return", environment) ?? settings.returnAfter
        settings.idleAfter = try seconds(kioskIdle, "kiosk-idle", environment) ?? settings.idleAfter
        settings.grace = try seconds(kioskGrace, "kiosk-grace", environment) ?? settings.grace
        configuration.kiosk = settings
    }

    /// A flag's value, else its environment variable's, checked to be whole seconds from 1 to an hour.
    private func seconds(_ given: Int?, _ flag: String, _ environment: [String: String]) throws -> Int? {
        let variable = "SURVEY_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
        guard let text = given.map(String.init) ?? environment[variable] else { return nil }
        guard let value = Int(text), (1...3600).contains(value) else {
            throw ValidationError("--\(flag) must be a whole number of seconds from 1 to 3600, not \(text).")
        }
        return value
    }
}

/// Where runs are kept, for the commands that open the store (`serve`, `export`): the data
/// folder and its SQLite file, or a PostgreSQL URL.
struct StoreOptions: ParsableArguments {
    @Option(help: "The folder for the database and the cookie secret (SURVEY_DATA, data).")
    var data = ProcessInfo.processInfo.environment["SURVEY_DATA"] ?? "data"

    @Option(help: "The SQLite file (SURVEY_DATABASE; default: runs.sqlite in the data folder).")
    var database: String?

    @Option(help: "Keep runs in PostgreSQL instead: postgres://user:password@host:port/database, which several replicas may share (SURVEY_STORE).")
    var store: String?

    /// The SQLite file named by the option or SURVEY_DATABASE, if any.
    var databasePath: String? { database ?? ProcessInfo.processInfo.environment["SURVEY_DATABASE"] }

    /// The PostgreSQL URL named by the option or SURVEY_STORE, checked to be one.
    func postgresURL() throws -> String? {
        guard let store = store ?? ProcessInfo.processInfo.environment["SURVEY_STORE"] else { return nil }
        guard store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") else {
            throw ValidationError("--store takes a postgres:// URL; without it runs are kept in SQLite.")
        }
        return store
    }
}
