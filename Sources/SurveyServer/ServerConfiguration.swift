import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything `survey serve` can be told, from flags or the environment.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The folder of survey files (`*.json`).
    public var surveysDirectory: String
    /// A folder of FHIR packages whose ValueSets and CodeSystems Questionnaires may name.
    public var fhirPackagesDirectory: String?
    /// The folder for the SQLite file and the cookie secret.
    public var dataDirectory: String
    /// The SQLite file; defaults to `runs.sqlite` in the data folder.
    public var databasePath: String?
    /// A `postgres://…` URL: keep runs in PostgreSQL (for several replicas) instead of SQLite.
    public var postgresURL: String?
    /// A folder of templates to use instead of those built into the binary; it must hold every one.
    public var templatesDirectory: String?
    /// A folder of static files (CSS, images) to serve instead of those built into the binary.
    public var publicDirectory: String?
    /// The secret that signs cookies; read from (or created in) the data folder when absent.
    public var secret: Data?
    /// The largest request body accepted, in bytes.
    public var maximumBodySize: Int
    /// Mark cookies Secure even on plain HTTP (behind a TLS proxy that does not say so).
    public var alwaysSecureCookies: Bool
    /// How long a saved run's resume code and link stay valid.
    public var resumeLifetime: TimeInterval = 30 * 24 * 3600
    /// The bearer token of the researcher API; the API is off without one.
    public var apiToken: String?
    /// More API tokens by name (`--api-tokens`); `apiToken` is named `default`.
    public var namedAPITokens: [String: String] = [:]

    /// Every API token by name.
    public var apiTokens: [String: String] {
        var tokens = namedAPITokens
        if let apiToken, tokens["default"] == nil { tokens["default"] = apiToken }
        return tokens
    }
    /// Finished runs are deleted this long after they finished; kept for ever when nil.
    public var retention: TimeInterval?
    /// The address participants reach the server at (`https://survey.example.org`), for the
    /// resume and start links it hands out; else taken from each request.
    public var publicURL: String?
    /// Where a completed run's result is posted, signed with `webhookSecret` (HMAC-SHA256).
    public var webhookURL: String?
    public var webhookSecret: Data?
    /// What the webhook posts: our event around the result, or the run as a FHIR QuestionnaireResponse.
    public var webhookFormat: WebhookFormat = .json
    /// Reverse proxies whose forwarding headers (client address, scheme, host) are believed.
    public var trustedProxies: TrustedProxies = .none
    /// How long a session lives without a request.
    public var sessionLifetime: TimeInterval = 24 * 3600
    /// Runs that were started but never given an answer are deleted this long after their last change.
    public var unansweredLifetime: TimeInterval = 6 * 3600
    /// How many runs one client may start in an hour; nil for no limit.
    public var runsPerClientPerHour: Int? = 300
    /// Seconds from a request's first byte to the end of its head, however slowly it trickles.
    public var headerTimeout: TimeInterval = 10
    /// Seconds from the end of a request's head to the end of its body.
    public var bodyTimeout: TimeInterval = 30
    /// Seconds a kept-alive connection may wait for its next request.
    public var idleTimeout: TimeInterval = 60
    /// Connections open at once; further ones wait in the kernel's queue until one closes.
    public var maximumConnections = 4096
    /// Write one line per request (method, route, status, duration) to standard output;
    /// `survey serve` turns it on unless told `--no-access-log`.
    public var accessLog = false
    /// Serve `/metrics` on this port of `metricsHost` as well as, with a token, the main port.
    public var metricsPort: Int?
    public var metricsHost = "127.0.0.1"
    /// The bearer token `/metrics` asks for; without a token or a metrics port it is not served.
    public var metricsToken: String?
    /// The token researchers sign in to `/preview/` with; the preview is off without one.
    public var previewToken: String?
    /// A clinic's kiosk mode, on when a PIN is set: `/kiosk/{survey}`.
    public var kiosk: KioskSettings?

    public init(host: String = "127.0.0.1", port: Int = 8080, surveysDirectory: String = "Examples", dataDirectory: String = "data",
                databasePath: String? = nil, templatesDirectory: String? = nil, publicDirectory: String? = nil,
                secret: Data? = nil, maximumBodySize: Int = 64 * 1024, alwaysSecureCookies: Bool = false) {
        self.host = host
        self.port = port
        self.surveysDirectory = surveysDirectory
        self.dataDirectory = dataDirectory
        self.databasePath = databasePath
        self.templatesDirectory = templatesDirectory
        self.publicDirectory = publicDirectory
        self.secret = secret
        self.maximumBodySize = maximumBodySize
        self.alwaysSecureCookies = alwaysSecureCookies
    }

    /// The deadlines a connection is held to.
    var connectionTimeouts: ConnectionTimeouts {
        func amount(_ seconds: TimeInterval) -> TimeAmount { .nanoseconds(Int64((seconds * 1e9).rounded())) }
        return ConnectionTimeouts(header: amount(headerTimeout), body: amount(bodyTimeout), idle: amount(idleTimeout))
    }

    public var resolvedDatabasePath: String {
        databasePath ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("runs.sqlite").path
    }

    /// The secret given, else the one kept in the data folder, made once so a restart keeps sessions.
    /// The file is readable by its owner only from the moment it exists.
    func loadSecret() throws -> Data {
        if let secret { return secret }
        try makeDataFolder()
        let file = URL(fileURLWithPath: dataDirectory).appendingPathComponent("cookie-secret")
        if let existing = try? Data(contentsOf: file), existing.count >= 32 { return existing }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let temporary = file.path + ".\(UInt32.random(in: .min ... .max, using: &generator))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, file.path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return Data(bytes)
    }

    /// Creates the data folder, readable by its owner only, unless it exists.
    func makeDataFolder() throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}

import Hummingbird

extension ServerConfiguration {
    /// True when the request reached the server over HTTPS, directly or through a trusted
    /// proxy that says so.
    func isSecure(_ request: Request, _ context: SurveyRequestContext) -> Bool {
        alwaysSecureCookies || request.uri.scheme == .https
            || (context.isForwarded(trusting: trustedProxies) && request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https")
    }

    /// An absolute link to `path` on this server: under `publicURL` when set; else, through a
    /// trusted proxy, the scheme and host it forwards; else the address the connection arrived
    /// at. A Host header from anyone else is not believed, so nobody can make the server hand
    /// out links to another site.
    func absoluteURL(_ path: String, for request: Request, _ context: SurveyRequestContext) -> String {
        if let publicURL { return publicURL.trimmingSuffix("/") + path }
        let scheme = isSecure(request, context) ? "https" : "http"
        if context.isForwarded(trusting: trustedProxies),
           let host = request.headers[.init("X-Forwarded-Host")!] ?? request.head.authority, Self.isHostName(host) {
            return scheme + "://" + host + path
        }
        if let local = context.localAddress, let ip = local.ipAddress, let port = local.port {
            return scheme + "://" + (ip.contains(":") ? "[\(ip)]" : ip) + ":\(port)" + path
        }
        return scheme + "://" + host + ":\(port)" + path
    }

    /// A host with an optional port, and nothing that could end the authority of a URL.
    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0)) }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
