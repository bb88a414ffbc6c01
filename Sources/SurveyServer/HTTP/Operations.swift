import Foundation
import Hummingbird
import JSON
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import SurveyCore
import SurveyStorage

/// The counters and timings Prometheus scrapes from `/metrics`.
public struct ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let runsStarted: Counter
    let runsCompleted: Counter
    let runsSaved: Counter
    let validationErrors: Counter
    /// Pages whose answers could not be written because the store was unavailable.
    let writesRefused: Counter
    /// Kiosk runs left idle and ended, by what the survey's `kioskIdle` did with them.
    let kioskRunsDiscarded: Counter
    let kioskRunsKept: Counter
    /// Kiosk PINs refused, wrong or sent before the sender's wait was over: a rise is worth an alert.
    let kioskPinsRefused: Counter
    /// Audit entries of refusals and deliveries that could not be written (what they record happened anyway).
    let auditWritesFailed: Counter
    let requestDuration: DurationHistogram

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "survey", metricName: metric, unitName: unit, helpText: help)
        }
        runsStarted = registry.makeCounter(descriptor: name("runs_started", "total", "Runs started."))
        runsCompleted = registry.makeCounter(descriptor: name("runs_completed", "total", "Runs completed."))
        runsSaved = registry.makeCounter(descriptor: name("runs_saved", "total", "Runs saved for later."))
        validationErrors = registry.makeCounter(
            descriptor: name("validation_errors", "total", "Submitted pages refused because an answer needed correcting."))
        writesRefused = registry.makeCounter(
            descriptor: name("writes_refused", "total", "Submitted pages not saved because the store could not be reached; the participant was asked to send again."))
        kioskRunsDiscarded = registry.makeCounter(
            descriptor: name("kiosk_idle_runs_discarded", "total", "Kiosk runs left idle and deleted with their answers."))
        kioskRunsKept = registry.makeCounter(
            descriptor: name("kiosk_idle_runs_saved", "total", "Kiosk runs left idle and kept as saved for later."))
        kioskPinsRefused = registry.makeCounter(
            descriptor: name("kiosk_pins_refused", "total", "Kiosk PINs refused: wrong, or sent before the sender's wait was over."))
        auditWritesFailed = registry.makeCounter(
            descriptor: name("audit_writes_failed", "total", "Audit entries of refusals and webhook deliveries that could not be written."))
        requestDuration = registry.makeDurationHistogram(
            descriptor: name("request_duration", "seconds", "Time from a request's arrival to its response."),
            buckets: [.microseconds(250), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1)])
    }

    /// Counts a run started, in a browser or through the researcher API.
    func countRunStarted() {
        runsStarted.increment()
    }

    /// Counts a kiosk PIN refused.
    func countKioskPinRefused() {
        kioskPinsRefused.increment()
    }

    /// Counts a kiosk run ended for being left idle.
    func kioskRunsEnded(_ policy: KioskIdlePolicy) {
        (policy == .discard ? kioskRunsDiscarded : kioskRunsKept).increment()
    }
}

/// `/health` (the store answers) and, with a token, `/metrics` (Prometheus text format); without
/// one `/metrics` is only on the metrics port, if any.
struct OperationsRoutes: Sendable {
    let store: any RunStore
    let metrics: ServerMetrics
    var metricsToken: String?

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/health") { _, _ -> Response in
            do {
                _ = try await store.records(matching: RunQuery(limit: 1))
                return ResearcherAPI.json(.object(["status": .string("ok")]))
            } catch {
                return ResearcherAPI.json(.object(["status": .string("store unavailable")]), status: .serviceUnavailable)
            }
        }
        guard let metricsToken else { return }
        router.get("/metrics") { request, _ -> Response in
            Self.metricsResponse(metrics, request: request, token: metricsToken)
        }
    }

    /// The Prometheus text, or 401 when a token is set and the request does not carry it.
    static func metricsResponse(_ metrics: ServerMetrics, request: Request, token: String?) -> Response {
        if let token {
            let given = request.headers[.authorization] ?? ""
            guard given.hasPrefix("Bearer "), constantTimeEqual(String(given.dropFirst(7)), token) else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .cacheControl: "no-store"])
            }
        }
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }

    /// A second, small server with `/metrics` alone, on an address of its own (loopback by default).
    static func metricsApplication(_ metrics: ServerMetrics, host: String, port: Int, token: String?, logger: Logger) -> some Service {
        let router = Router()
        router.get("/metrics") { request, _ -> Response in metricsResponse(metrics, request: request, token: token) }
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
                           logger: logger)
    }
}
