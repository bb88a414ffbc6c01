import Foundation

extension ServerConfiguration {
    /// Everything `survey serve` is told, read from `settings` (flag, environment, config file,
    /// default) and checked: the first setting that cannot be used is the error.
    public init(settings: SettingsReader) throws(SettingError) {
        try self.init(storeSettings: settings)
        host = try settings.text(.host) ?? host
        port = try settings.integer(.port, in: 0...65_535) ?? port
        surveysDirectory = try settings.text(.surveys) ?? surveysDirectory
        fhirPackagesDirectory = try settings.text(.fhirPackages)
        templatesDirectory = try settings.text(.templates)
        publicDirectory = try settings.text(.publicFolder)
        alwaysSecureCookies = try settings.boolean(.secureCookies) ?? false
        publicURL = try settings.value(.publicURL) { text in
            URL(string: text).flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil ? text : nil }
        }
        secret = try settings.value(.secret) { $0.utf8.count >= 32 ? Data($0.utf8) : nil }
        apiToken = try settings.value(.apiToken, Self.token)
        namedAPITokens = try settings.value(.apiTokens, Self.namedTokens) ?? [:]
        previewToken = try settings.value(.previewToken, Self.token)
        resumeLifetime = try settings.number(.resumeDays, above: 0).map { $0 * 86_400 } ?? resumeLifetime
        retention = try settings.number(.retentionDays, above: 0).map { $0 * 86_400 }
        try readWebhook(settings)
        try readSessions(settings)
        try readConnections(settings)
        try readOperations(settings)
        kiosk = try Self.kioskSettings(settings)
    }

    /// Where runs are kept, for the commands that open the store without serving (`export`,
    /// `migrate`): the data folder, the SQLite file and the PostgreSQL URL; the rest is default.
    public init(storeSettings settings: SettingsReader) throws(SettingError) {
        self.init(dataDirectory: try settings.text(.data) ?? "data", databasePath: try settings.text(.database))
        postgresURL = try settings.value(.store) { $0.hasPrefix("postgres://") || $0.hasPrefix("postgresql://") ? $0 : nil }
    }

    /// A token of at least 16 characters.
    private static func token(_ text: String) -> String? { text.count >= 16 ? text : nil }

    /// `name=token,name=token`: names of letters, digits, '.', '_' and '-', each once, tokens as `token`.
    static func namedTokens(_ text: String) -> [String: String]? {
        var tokens: [String: String] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = token(parts[1]), !parts[0].isEmpty, parts[0].count <= 64,
                  parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }),
                  tokens[parts[0]] == nil else { return nil }
            tokens[parts[0]] = value
        }
        return tokens.isEmpty ? nil : tokens
    }

    private mutating func readWebhook(_ settings: SettingsReader) throws(SettingError) {
        let format = try settings.value(.webhookFormat) { WebhookFormat(rawValue: $0) }
        guard let url = try settings.value(.webhookURL, { text in
            URL(string: text).flatMap { ["http", "https"].contains($0.scheme ?? "") ? text : nil }
        }) else {
            guard format == nil || format == .json else { throw SettingError("--webhook-format needs --webhook-url (env SURVEY_WEBHOOK_URL).") }
            return
        }
        guard let secret = try settings.value(.webhookSecret, { $0.utf8.count >= 16 ? Data($0.utf8) : nil }) else {
            throw SettingError("--webhook-url needs SURVEY_WEBHOOK_SECRET (at least 16 characters) to sign what it posts.")
        }
        webhookURL = url
        webhookSecret = secret
        webhookFormat = format ?? .json
    }

    private mutating func readSessions(_ settings: SettingsReader) throws(SettingError) {
        let proxies = try settings.list(.trustedProxy) ?? []
        do {
            trustedProxies = try TrustedProxies(proxies)
        } catch {
            throw SettingError("--trusted-proxy \(Setting.trustedProxy.rule): \(error) (\(SettingError.names(of: .trustedProxy))).")
        }
        sessionLifetime = try settings.number(.sessionHours, above: 0).map { $0 * 3600 } ?? sessionLifetime
        unansweredLifetime = try settings.number(.unansweredHours, above: 0).map { $0 * 3600 } ?? unansweredLifetime
        if let limit = try settings.integer(.runsPerHour, in: 0...Int.max) {
            runsPerClientPerHour = limit == 0 ? nil : limit
        }
    }

    private mutating func readConnections(_ settings: SettingsReader) throws(SettingError) {
        headerTimeout = try settings.number(.headerTimeout, above: 0, upTo: 86_400) ?? headerTimeout
        bodyTimeout = try settings.number(.bodyTimeout, above: 0, upTo: 86_400) ?? bodyTimeout
        idleTimeout = try settings.number(.idleTimeout, above: 0, upTo: 86_400) ?? idleTimeout
        maximumConnections = try settings.integer(.maxConnections, in: 1...Int.max) ?? maximumConnections
    }

    private mutating func readOperations(_ settings: SettingsReader) throws(SettingError) {
        accessLog = try settings.boolean(.accessLog) ?? true
        metricsPort = try settings.integer(.metricsPort, in: 1...65_535)
        if let metricsPort, metricsPort == port {
            throw SettingError("--metrics-port must differ from --port, and both are \(port) (\(SettingError.names(of: .metricsPort))).")
        }
        metricsHost = try settings.text(.metricsHost) ?? metricsHost
        metricsToken = try settings.value(.metricsToken, Self.token)
    }

    private static func kioskSettings(_ settings: SettingsReader) throws(SettingError) -> KioskSettings? {
        guard let pin = try settings.value(.kioskPin, { KioskSettings.isValidPIN($0) ? $0 : nil }) else {
            for setting in [Setting.kioskHours, .kioskReturn, .kioskIdle, .kioskGrace] where try settings.given(setting) != nil {
                throw SettingError("The --kiosk-… options need --kiosk-pin (or SURVEY_KIOSK_PIN), and \(setting.name) is set without it.")
            }
            return nil
        }
        var kiosk = KioskSettings(pin: pin)
        kiosk.deviceLifetime = try settings.number(.kioskHours, above: 0, upTo: 744).map { $0 * 3600 } ?? kiosk.deviceLifetime
        kiosk.returnAfter = try settings.integer(.kioskReturn, in: 1...3600) ?? kiosk.returnAfter
        kiosk.idleAfter = try settings.integer(.kioskIdle, in: 1...3600) ?? kiosk.idleAfter
        kiosk.grace = try settings.integer(.kioskGrace, in: 1...3600) ?? kiosk.grace
        return kiosk
    }
}
