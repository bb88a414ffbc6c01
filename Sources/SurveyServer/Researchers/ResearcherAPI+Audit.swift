import Foundation
import Hummingbird
import JSON
import NIOCore
import SurveyCore
import SurveyStorage

/// The audit log through the API: its entries as JSON Lines, and one run's history.
extension ResearcherAPI {
    /// `GET /api/v1/audit[?run=ID&since=T]`: the entries, oldest first, as JSON Lines.
    func audit(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        let parameters = request.uri.queryParameters
        var query = AuditQuery()
        if let run = parameters.get("run") {
            guard let id = UUID(uuidString: run) else { return Self.problem(.badRequest, "\"run\" must be a run's identifier.") }
            query.run = id
        }
        if let since = parameters.get("since") {
            guard let date = DateTimeParsing.instant(since, defaultZone: TimeZone(identifier: "UTC")!) else {
                return Self.problem(.badRequest, "\"since\" must be an ISO 8601 date or date-time.")
            }
            query.since = date
        }
        try await runs.recordAccess("audit.read", by: actor, run: query.run, detail: .object(["since": parameters.get("since").map(JSONValue.string)]))
        let store = runs.store
        let chosen = query
        let body = ResponseBody { writer in
            var page = chosen
            while true {
                let entries = try await store.auditEntries(page)
                let lines = entries.map { JSONWriter.string($0.json, pretty: false) + "\n" }.joined()
                if !lines.isEmpty { try await writer.write(ByteBuffer(string: lines)) }
                guard let last = entries.last, entries.count == page.limit else { break }
                page.afterID = last.id
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/jsonl; charset=utf-8", .cacheControl: "no-store"], body: body)
    }

    /// `GET /api/v1/runs/:id/history`: what was answered, changed and when, for staff, as a page.
    func history(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            return Self.problem(.notFound, "There is no run with this id.")
        }
        guard let entries = try await runs.history(of: id, by: actor) else {
            return Self.problem(.notFound, "The audit log holds nothing about this run.")
        }
        let page = RunHistoryPage(run: id, entries: entries).html
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }
}
