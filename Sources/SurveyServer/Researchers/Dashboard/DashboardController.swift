import Foundation
import Hummingbird
import JSON
import NIOCore
import SurveyAnalysis
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The researchers' dashboard: `/dashboard` lists the surveys, `/dashboard/{survey}` draws how
/// one is going, and each chart downloads as SVG and CSV (`/dashboard/{survey}/funnel.svg`,
/// `/dashboard/{survey}/questions/{key}.csv`). Open to whoever the preview lets in (its
/// signed cookie) and to scripts sending an API token as `Authorization: Bearer`; each look is
/// recorded in the audit log's `access` chain, as an export is.
struct DashboardController: Sendable {
    let catalog: SurveyCatalog
    let runs: RunService
    let service: DashboardService
    let signer: SessionSigner
    let api: ResearcherAPI
    /// The preview's token: when set, a browser without the cookie is sent to its sign-in.
    let previewToken: String?
    let clock: @Sendable () -> Date

    func addRoutes(to router: Router<SurveyRequestContext>) {
        router.get("/dashboard") { request, _ in try await allowed(request) { _ in index() } }
        router.get("/dashboard/:survey") { request, context in try await allowed(request) { try await page(request, context, by: $0) } }
        router.get("/dashboard/:survey/:file") { request, context in
            try await allowed(request) { try await download(request, context, file: context.parameters.get("file") ?? "", by: $0) }
        }
        router.get("/dashboard/:survey/questions/:file") { request, context in
            try await allowed(request) {
                try await download(request, context, file: "questions/" + (context.parameters.get("file") ?? ""), by: $0)
            }
        }
    }

    /// Runs `handler` for a signed-in researcher or a bearer of an API token.
    private func allowed(_ request: Request, _ handler: (AuditActor) async throws -> Response) async throws -> Response {
        let given = request.headers[.authorization] ?? ""
        if given.hasPrefix("Bearer ") {
            guard let actor = api.actor(bearing: String(given.dropFirst(7))) else {
                await runs.recordRefusal("dashboard.tokenRefused", by: .system("dashboard"))
                return unauthorized()
            }
            return try await recorded { try await handler(actor) }
        }
        if previewToken != nil, PreviewController.isSignedIn(request, signer: signer, now: clock()) {
            return try await recorded { try await handler(.staff("preview token")) }
        }
        if previewToken != nil { return Response(status: .seeOther, headers: [.location: "/preview/sign-in", .cacheControl: "no-store"]) }
        return unauthorized()
    }

    private func recorded(_ work: () async throws -> Response) async throws -> Response {
        do {
            return try await work()
        } catch is AuditUnwritten {
            throw HTTPError(.serviceUnavailable)
        }
    }

    private func unauthorized() -> Response {
        var response = ResearcherAPI.problem(.unauthorized, "Sign in to the preview, or send an API token as 'Authorization: Bearer <token>'.")
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }

    private func index() -> Response {
        html(DashboardPage.index(surveys: Array(catalog.surveys.values), library: catalog.library))
    }

    private func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: SecurityHeaders.page, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The survey, the filters read from the query string, and the figures for them.
    private func figures(_ request: Request, _ context: SurveyRequestContext) async throws
        -> (pages: SurveyPages, filters: DashboardFilters, report: DashboardReport, charts: DashboardCharts) {
        guard let identifier = context.parameters.get("survey"), let pages = catalog.surveys[identifier] else {
            throw HTTPError(.notFound, message: "There is no such survey.")
        }
        guard let fields = try? FormDecoding.decode(Array((request.uri.query ?? "").utf8)) else {
            throw HTTPError(.badRequest, message: "The filters cannot be read.")
        }
        let items = ["from", "to", "status", "arm", "parameter", "value"].compactMap { name in fields.values[name]?.first.map { (name, $0) } }
        let filters = DashboardFilters(task: pages.task, items: items)
        let report = try await service.report(pages, timeZone: runs.timeZone(of: pages.survey), query: filters.query)
        return (pages, filters, report, DashboardCharts(report: report, pages: pages))
    }

    private func page(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        let (pages, filters, report, charts) = try await figures(request, context)
        try await runs.recordAccess("dashboard.read", by: actor, survey: pages.task.identifier, detail: detail(filters, file: nil))
        let countedAt = Self.minute(clock(), in: runs.timeZone(of: pages.survey))
        let body = DashboardPage.survey(pages, report: report, charts: charts, filters: filters, countedAt: countedAt, library: catalog.library)
        return html(body, status: filters.errors.isEmpty ? .ok : .badRequest)
    }

    private func download(_ request: Request, _ context: SurveyRequestContext, file: String, by actor: AuditActor) async throws -> Response {
        let kind: String
        if file.hasSuffix(".svg") { kind = "svg" } else if file.hasSuffix(".csv") { kind = "csv" } else {
            throw HTTPError(.notFound, message: "A chart downloads as .svg or .csv.")
        }
        let (pages, filters, _, charts) = try await figures(request, context)
        guard filters.errors.isEmpty else { throw HTTPError(.badRequest, message: filters.errors.values.sorted().joined(separator: "; ")) }
        let name = String(file.dropLast(4))
        guard let chart = charts.chart(file: name) else { throw HTTPError(.notFound, message: "The dashboard has no such chart.") }
        let body: String
        let contentType: String
        if kind == "svg" {
            guard let svg = chart.svgFile else { throw HTTPError(.notFound, message: "This chart has no picture: its answers are only counted.") }
            body = svg
            contentType = "image/svg+xml; charset=utf-8"
        } else {
            body = "\u{FEFF}" + chart.csv
            contentType = "text/csv; charset=utf-8"
        }
        try await runs.recordAccess("dashboard.downloaded", by: actor, survey: pages.task.identifier, detail: detail(filters, file: file))
        let fileName = "\(pages.task.identifier)-\(name.replacingOccurrences(of: "/", with: "-")).\(kind)"
            .filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        return Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store",
                                               .contentDisposition: "attachment; filename=\"\(fileName)\""],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// An instant as a researcher reads it, to the minute, with the survey's offset from UTC:
    /// `2026-11-28 05:04 (UTC+01:00)`.
    static func minute(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        let offset = zone.secondsFromGMT(for: instant) / 60
        return String(format: "%04d-%02d-%02d %02d:%02d (UTC", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
            + (offset < 0 ? "-" : "+") + String(format: "%02d:%02d)", abs(offset) / 60, abs(offset) % 60)
    }

    /// What the audit log says of a look: its filters and the chart downloaded.
    private func detail(_ filters: DashboardFilters, file: String?) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in [("from", filters.from), ("to", filters.to), ("status", filters.status), ("arm", filters.arm),
                              ("parameter", filters.parameter), ("value", filters.value)] where !value.isEmpty {
            fields[name] = .string(value)
        }
        if let file { fields["chart"] = .string(file) }
        return .object(JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }
}
