extension Setting {
    /// The config file to read (`--config FILE`, `SURVEY_CONFIG`); not a key of the file itself.
    public static let config = Setting("config", "A JSON file of settings, keyed as docs/operations.md lists them; flags and the environment win over it",
                                       rule: "must name a readable JSON file")

    public static let host = Setting("host", "The address to listen on", rule: "must not be empty", default: "127.0.0.1")
    public static let port = Setting("port", "The port to listen on", rule: "must be a port number from 0 to 65535", default: "8080")
    public static let surveys = Setting("surveys", "The folder of survey files", rule: "must not be empty", default: "Examples")
    public static let fhirPackages = Setting("fhirPackages", "A folder of FHIR packages (their package/ folders) whose ValueSets and CodeSystems Questionnaires may name by canonical URL",
                                             rule: "must not be empty")
    public static let data = Setting("data", "The folder for the database and the cookie secret", rule: "must not be empty", default: "data")
    public static let database = Setting("database", "The SQLite file", rule: "must not be empty",
                                         default: "runs.sqlite in the data folder")
    public static let store = Setting("store", "Keep runs in PostgreSQL instead: postgres://user:password@host:port/database, which several replicas may share",
                                      rule: "takes a postgres:// URL; without it runs are kept in SQLite", isSecret: true)
    public static let templates = Setting("templates", "A folder of Mustache templates to use instead of the built-in ones; it must hold every one",
                                          rule: "must not be empty")
    public static let publicFolder = Setting("public", "A folder of static files (CSS, images) to serve instead of the built-in ones",
                                             rule: "must not be empty")
    public static let publicURL = Setting("publicUrl", "The address participants reach the server at, for the resume and start links (default: each request's host)",
                                          rule: "must be an absolute http or https URL")
    public static let secureCookies = Setting("secureCookies", "Mark cookies Secure even when requests arrive over plain HTTP",
                                              rule: Self.booleanRule, default: "false")
    public static let secret = Setting("secret", "The secret that signs cookies, the same for every replica", rule: "must be at least 32 characters",
                                       default: "made once in the data folder", isSecret: true, hasFlag: false)
    public static let apiToken = Setting("apiToken", "The bearer token of the researcher API and the dashboard; the API is off without one",
                                         rule: "must be at least 16 characters", isSecret: true)
    public static let apiTokens = Setting("apiTokens", "More bearer tokens of the researcher API, each with a name the audit log records: name=token pairs separated by commas",
                                          rule: "must be name=token pairs separated by commas, each name of letters, digits, '.', '_' or '-' and each token at least 16 characters",
                                          isSecret: true, hasFlag: false)
    public static let previewToken = Setting("previewToken", "Open /preview/ (every path of each survey) and /dashboard/ (how each study is going) to researchers who sign in with this token",
                                             rule: "must be at least 16 characters", isSecret: true)
    public static let webhookURL = Setting("webhookUrl", "Post each completed run's result here, signed with SURVEY_WEBHOOK_SECRET",
                                           rule: "must be an http or https URL")
    public static let webhookFormat = Setting("webhookFormat", "What the webhook posts: json (our event with the result), fhir (a QuestionnaireResponse) or fhir-transaction (a transaction Bundle with the Observations extracted from it)",
                                              rule: "must be json, fhir or fhir-transaction", default: "json")
    public static let webhookSecret = Setting("webhookSecret", "The key that signs what the webhook posts (HMAC-SHA256)",
                                              rule: "must be at least 16 characters", isSecret: true, hasFlag: false)
    public static let retentionDays = Setting("retentionDays", "Delete finished runs this many days after they finished",
                                              rule: "must be a number of days more than 0", default: "keep them")
    public static let resumeDays = Setting("resumeDays", "Days a saved run's resume code and link stay valid",
                                           rule: "must be a number of days more than 0", default: "30")

    public static let trustedProxy = Setting("trustedProxy", "A reverse proxy (address or CIDR range, repeatable or comma-separated) whose X-Forwarded-For, -Proto and -Host are believed",
                                             rule: "must be IP addresses or CIDR ranges, separated by commas")
    public static let sessionHours = Setting("sessionHours", "Hours a session lives without a request", rule: "must be a number of hours more than 0", default: "24")
    public static let unansweredHours = Setting("unansweredHours", "Hours after which a run started but never answered is deleted",
                                                rule: "must be a number of hours more than 0", default: "6")
    public static let runsPerHour = Setting("runsPerHour", "Runs one client address may start in an hour; 0 for no limit",
                                            rule: "must be a whole number, 0 (no limit) or more", default: "300")

    public static let headerTimeout = Setting("headerTimeout", "Seconds from a request's first byte to the end of its head; a slower client gets 408",
                                              rule: Self.timeoutRule, default: "10")
    public static let bodyTimeout = Setting("bodyTimeout", "Seconds from the end of a request's head to the end of its body", rule: Self.timeoutRule, default: "30")
    public static let idleTimeout = Setting("idleTimeout", "Seconds a kept-alive connection may wait for its next request", rule: Self.timeoutRule, default: "60")
    public static let maxConnections = Setting("maxConnections", "Connections open at once; more wait to be accepted until one closes",
                                               rule: "must be a whole number more than 0", default: "4096")

    public static let accessLog = Setting("accessLog", "Write a line per request to standard output: method, route, status, duration",
                                          rule: Self.booleanRule, default: "true")
    public static let metricsPort = Setting("metricsPort", "Serve /metrics on this port of the metrics host", rule: "must be a port number from 1 to 65535, other than --port")
    public static let metricsHost = Setting("metricsHost", "The address of the metrics port", rule: "must not be empty", default: "127.0.0.1")
    public static let metricsToken = Setting("metricsToken", "Serve /metrics on the main port too, to requests with 'Authorization: Bearer <token>'",
                                             rule: "must be at least 16 characters", isSecret: true)

    public static let kioskPin = Setting("kioskPin", "Turn on /kiosk/{survey}: the PIN staff enter to make a device a kiosk",
                                         rule: "must be 6 digits or more, and digits only", isSecret: true)
    public static let kioskHours = Setting("kioskHours", "Hours a device stays a kiosk once staff set it up",
                                           rule: "must be a number of hours more than 0 and at most 744", default: "12")
    public static let kioskReturn = Setting("kioskReturn", "Seconds an end page shows before the start screen returns", rule: Self.kioskSecondsRule, default: "15")
    public static let kioskIdle = Setting("kioskIdle", "Seconds without a request before a step asks \"Are you still there?\"", rule: Self.kioskSecondsRule, default: "120")
    public static let kioskGrace = Setting("kioskGrace", "Seconds \"Are you still there?\" waits before the run ends per the survey's kioskIdle",
                                           rule: Self.kioskSecondsRule, default: "30")

    static let booleanRule = "must be true or false (also 1/0, yes/no, on/off)"
    static let timeoutRule = "must be a number of seconds more than 0 and at most 86400"
    static let kioskSecondsRule = "must be a whole number of seconds from 1 to 3600"

    /// Every setting of `survey serve`, in the order the documentation lists them.
    public static let serve: [Setting] = [
        config, host, port, surveys, fhirPackages, data, database, store, templates, publicFolder, publicURL, secureCookies, secret,
        apiToken, apiTokens, previewToken, webhookURL, webhookFormat, webhookSecret, retentionDays, resumeDays,
        trustedProxy, sessionHours, unansweredHours, runsPerHour, headerTimeout, bodyTimeout, idleTimeout, maxConnections,
        accessLog, metricsPort, metricsHost, metricsToken, kioskPin, kioskHours, kioskReturn, kioskIdle, kioskGrace,
    ]
}
