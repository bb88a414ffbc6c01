import Crypto
import Foundation
import Hummingbird
import JSON
import NIOCore
import SurveyCore
import SurveyRendering
import SurveyStorage

/// The researcher and embedding API, JSON over HTTP with a bearer token: create a run and get
/// its start link, read a run's status and result, list runs, delete a run.
struct ResearcherAPI: Sendable {
    let catalog: SurveyCatalog
    let runs: RunService
    /// The API's tokens by name; the API is off without one.
    let tokens: [String: String]
    let configuration: ServerConfiguration

    func addRoutes(to router: Router<SurveyRequestContext>) {
        let api = router.group("api/v1")
        api.post("runs") { request, context in try await authorized(request) { try await create(request, context, by: $0) } }
        api.get("runs") { request, context in try await authorized(request) { try await list(request, context, by: $0) } }
        api.get("runs/:id") { request, context in try await authorized(request) { try await read(request, context, by: $0) } }
        api.delete("runs/:id") { request, context in try await authorized(request) { try await delete(request, context, by: $0) } }
        api.get("runs/:id/consent.pdf") { request, context in
            try await authorized(request) { try await consentCopy(request, context, by: $0) }
        }
        api.post("runs/:id/countersign") { request, context in
            try await authorized(request) { try await countersign(request, context, by: $0) }
        }
        api.get("runs/:id/history") { request, context in try await authorized(request) { try await history(request, context, by: $0) } }
        api.get("surveys/:survey/export") { request, context in try await authorized(request) { try await export(request, context, by: $0) } }
        api.get("surveys/:survey/quotas") { request, context in try await authorized(request) { try await quotas(request, context, by: $0) } }
        api.get("audit") { request, context in try await authorized(request) { try await audit(request, context, by: $0) } }
    }

    // MARK: Plumbing

    /// The token's name as the audit log's actor, or nil when no token matches.
    func actor(bearing given: String) -> AuditActor? {
        var found: AuditActor?
        // Every token is compared, so the time taken says nothing of which one nearly matched.
        for (name, token) in tokens.sorted(by: { $0.key < $1.key }) where constantTimeEqual(given, token) { found = .token(name) }
        return found
    }

    private func authorized(_ request: Request, _ handler: (AuditActor) async throws -> Response) async throws -> Response {
        guard !tokens.isEmpty else {
            return Self.problem(.serviceUnavailable, "The researcher API is off: start the server with --api-token.")
        }
        let given = request.headers[.authorization] ?? ""
        guard given.hasPrefix("Bearer "), let actor = actor(bearing: String(given.dropFirst(7))) else {
            if given.hasPrefix("Bearer ") {
                await runs.recordRefusal("api.tokenRefused", by: .system("api"), detail: .object(["path": .string(request.uri.path)]))
            }
            var response = Self.problem(.unauthorized, "Send the API token as 'Authorization: Bearer <token>'.")
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        do {
            return try await handler(actor)
        } catch is AuditUnwritten {
            return Self.problem(.serviceUnavailable, "The audit log could not record this request, so it was not carried out; try again.")
        }
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: JSONWriter.string(value))))
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(.object(["error": .string(message)]), status: status)
    }

    private func summary(_ record: RunRecord, pages: SurveyPages?) -> JSONValue {
        let zone = pages.map { runs.timeZone(of: $0.survey) } ?? .current
        return .object([
            "id": .string(record.id.uuidString.lowercased()),
            "survey": .string(record.surveyIdentifier),
            "status": .string(record.status),
            "participantId": record.externalID.map(JSONValue.string),
            "returnURL": record.returnURL.map(JSONValue.string),
            "subject": record.fhirContext?.subject.map(JSONValue.object),
            "encounter": record.fhirContext?.encounter.map(JSONValue.object),
            "startDate": .string(DateTimeParsing.string(record.run.startDate, in: zone)),
            "updatedAt": .string(DateTimeParsing.string(record.updatedAt, in: zone)),
            "endDate": record.run.endDate.map { .string(DateTimeParsing.string($0, in: zone)) },
            "consent": record.run.consent.map { $0.json(in: zone) },
        ])
    }

    /// A return address as it will be stored and used: parsed, with its scheme and host in
    /// lower case, or nil when it is not an absolute http(s) URL with a host, carries a user
    /// name or password, or holds white space, control characters or a backslash (which
    /// browsers and parsers read differently).
    static func normalizedReturnURL(_ text: String) -> String? {
        guard text.utf8.count <= 2_000,
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" && $0.isASCII }),
              var components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty, components.user == nil, components.password == nil else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        return components.url?.absoluteString
    }

    // MARK: Endpoints

    func create(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: configuration.maximumBodySize)
        } catch {
            return Self.problem(.contentTooLarge, "The request is too large.")
        }
        guard case .object(let body)? = try? JSONParser.parse(String(buffer: buffer)) else {
            return Self.problem(.badRequest, "Send a JSON object such as {\"survey\": \"fever-triage\"}.")
        }
        guard case .string(let identifier)? = body["survey"], let pages = catalog.surveys[identifier] else {
            return Self.problem(.unprocessableContent, "\"survey\" must name one of: \(catalog.surveys.keys.sorted().joined(separator: ", ")).")
        }
        var participant: String?
        if let value = body["participantId"] {
            guard case .string(let text) = value, !text.isEmpty, text.count <= 200 else {
                return Self.problem(.unprocessableContent, "\"participantId\" must be a string of 1 to 200 characters.")
            }
            participant = text
        }
        var returnURL: String?
        if let value = body["returnURL"] {
            guard case .string(let text) = value, let normalized = Self.normalizedReturnURL(text) else {
                return Self.problem(.unprocessableContent,
                                    "\"returnURL\" must be an absolute http or https URL with a host, no user name or password, and no spaces or control characters.")
            }
            returnURL = normalized
        }
        var fhirContext = FHIRRunContext()
        for key in ["subject", "encounter"] {
            guard let value = body[key] else { continue }
            switch FHIRRunContext.reference(value, key: key) {
            case .failure(let failure): return Self.problem(.unprocessableContent, failure.message)
            case .success(let reference):
                if key == "subject" { fhirContext.subject = reference } else { fhirContext.encounter = reference }
            }
        }
        for key in body.keys where !Self.createKeys.contains(key) {
            return Self.problem(.unprocessableContent, "Unknown key \"\(key)\"; use \(Self.createKeys.joined(separator: ", ")).")
        }
        let parameters: [String: String]
        switch Self.parameters(body["parameters"], for: pages.task) {
        case .success(let values): parameters = values
        case .failure(let problem): return Self.problem(.unprocessableContent, problem.text)
        }
        let (record, ticket) = try await runs.create(pages.survey, participant: participant, returnURL: returnURL,
                                                     fhirContext: fhirContext.isEmpty ? nil : fhirContext, parameters: parameters, by: actor)
        guard case .object(var object) = summary(record, pages: pages) else { return Self.problem(.internalServerError, "") }
        object["startLink"] = .string(configuration.absoluteURL("/start/\(ticket.token)", for: request, context))
        object["startLinkExpires"] = .string(DateTimeParsing.string(ticket.expiresAt, in: runs.timeZone(of: pages.survey)))
        var response = Self.json(.object(object), status: .created)
        response.headers[.location] = "/api/v1/runs/\(record.id.uuidString.lowercased())"
        return response
    }

    /// The keys a request to create a run may have.
    static let createKeys = ["survey", "participantId", "returnURL", "subject", "encounter", "parameters"]

    func read(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text), let record = try await runs.run(id: id) else {
            return Self.problem(.notFound, "There is no run with this id.")
        }
        let pages = catalog.surveys[record.surveyIdentifier]
        guard let format = ResultFormat(query: request.uri.queryParameters.get("format")) else {
            return Self.problem(.badRequest, "\"format\" must be one of \(ResultFormat.names).")
        }
        try await runs.recordAccess("results.read", by: actor, survey: record.surveyIdentifier, run: record.id, detail: .object([
            "format": .string(request.uri.queryParameters.get("format") ?? "json"), "includeIdentifiers": .bool(includesIdentifiers(request)),
        ]))
        if format.isFHIR {
            // An EHR reads the resource itself, not our summary around it.
            guard let pages else { return Self.problem(.notFound, "The run's survey is no longer served, so it has no FHIR form.") }
            var result = runs.result(of: record, in: pages.survey, identifiers: includesIdentifiers(request))
            if format == .fhirConsent {
                result.copy = try await runs.consentCopy(of: record).map(Self.inline)
                let resource = result.json(format)
                guard resource != .null else { return Self.problem(.notFound, "The run has given no consent.") }
                return Self.json(resource, contentType: format.contentType)
            }
            return Self.json(result.json(format), contentType: format.contentType)
        }
        guard case .object(var object) = summary(record, pages: pages) else { return Self.problem(.internalServerError, "") }
        if let pages {
            object["result"] = runs.result(of: record, in: pages.survey, identifiers: includesIdentifiers(request)).json(format)
        }
        return Self.json(.object(object))
    }

    /// `includeIdentifiers=1`: the answers that identify the participant are kept, as in the exports.
    private func includesIdentifiers(_ request: Request) -> Bool {
        request.uri.queryParameters.get("includeIdentifiers") == "1"
    }

    /// A signed copy as a Consent carries it inline, with R4's SHA-1 beside our SHA-256.
    static func inline(_ copy: RunDocument) -> ConsentExport.Copy {
        ConsentExport.Copy(sha256: copy.sha256, data: copy.bytes, sha1: Array(Insecure.SHA1.hash(data: copy.bytes)),
                           title: copy.kind == .countersignedConsent ? "Countersigned consent" : "Signed consent")
    }

    /// The run's signed copy: the countersigned one once there is one.
    func consentCopy(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text), let record = try await runs.run(id: id),
              let copy = try await runs.consentCopy(of: record) else {
            return Self.problem(.notFound, "There is no signed consent for this id.")
        }
        try await runs.recordAccess("consent.copyRead", by: actor, survey: record.surveyIdentifier, run: record.id,
                               detail: .object(["copySHA256": .string(copy.sha256)]))
        return Response(status: .ok, headers: [
            .contentType: "application/pdf", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"consent-\(record.id.uuidString.lowercased()).pdf\"",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: copy.bytes)))
    }

    /// A member of staff countersigns a certified consent: `{"name": "…", "language": "en"}`.
    func countersign(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text), let record = try await runs.run(id: id),
              let pages = catalog.surveys[record.surveyIdentifier] else {
            return Self.problem(.notFound, "There is no run with this id.")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 16 * 1024)
        } catch {
            return Self.problem(.contentTooLarge, "The request is too large.")
        }
        guard case .object(let object)? = try? JSONParser.parse(String(buffer: body)),
              case .string(let typed)? = object["name"] else {
            return Self.problem(.badRequest, "Send {\"name\": \"…\"}: the name of the member of staff who countersigns.")
        }
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else { return Self.problem(.badRequest, "\"name\" must hold 1 to 100 characters.") }
        var language = pages.languages[0]
        if let asked = object["language"] {
            guard case .string(let tag) = asked else { return Self.problem(.badRequest, "\"language\" must be a language tag.") }
            language = pages.language(preferring: [tag])
        }
        guard pages.task.consentDocument?.countersignature != nil else {
            return Self.problem(.conflict, "The survey's consent document asks for no countersignature.")
        }
        guard record.run.consent?.copySHA256 != nil, record.run.consent?.withdrawnAt == nil else {
            return Self.problem(.conflict, "The run has no certified consent to countersign.")
        }
        guard record.run.consent?.countersignature == nil else { return Self.problem(.conflict, "The consent is already countersigned.") }
        do {
            guard let signed = try await runs.countersign(record, name: name, language: language, by: actor) else {
                return Self.problem(.conflict, "The run has no certified consent to countersign.")
            }
            return Self.json(summary(signed, pages: pages))
        } catch let error as RunStoreError where error.isConflict {
            return Self.problem(.conflict, "The run changed meanwhile; read it again.")
        }
    }

    func list(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        let parameters = request.uri.queryParameters
        var query = RunQuery()
        query.survey = parameters.get("survey")
        query.status = parameters.get("status")
        if let since = parameters.get("since") {
            guard let date = DateTimeParsing.instant(since, defaultZone: TimeZone(identifier: "UTC")!) else {
                return Self.problem(.badRequest, "\"since\" must be an ISO 8601 date or date-time.")
            }
            query.updatedSince = date
        }
        if let limit = parameters.get("limit") {
            guard let number = Int(limit), (1...1000).contains(number) else { return Self.problem(.badRequest, "\"limit\" must be from 1 to 1000.") }
            query.limit = number
        }
        let records = try await runs.runs(matching: query)
        try await runs.recordAccess("runs.listed", by: actor, survey: query.survey ?? "", detail: .object([
            "status": query.status.map(JSONValue.string), "since": parameters.get("since").map(JSONValue.string),
            "limit": .number(Double(query.limit)), "rows": .number(Double(records.count)),
        ]))
        return Self.json(.object(["runs": .array(records.map { summary($0, pages: catalog.surveys[$0.surveyIdentifier]) })]))
    }

    /// Deletes a run and erases its answers from the audit log; `?reason=withdrawn` (or another
    /// word of letters) says why in the log, `deleted` when not given.
    func delete(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        let reason = request.uri.queryParameters.get("reason") ?? "deleted"
        guard (1...40).contains(reason.count), reason.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return Self.problem(.badRequest, "\"reason\" must be a word of 1 to 40 letters, such as withdrawn.")
        }
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text),
              try await runs.delete(id: id, reason: reason, by: actor) else {
            return Self.problem(.notFound, "There is no run with this id.")
        }
        return Response(status: .noContent)
    }

    /// A survey's runs in an export format, streamed: the store is read a page at a time as the
    /// response is written. `format` (required), `status`, `since`, `missing=codes`, `bom=1`,
    /// `includeIdentifiers=1` (the answers that identify participants are left out without it).
    func export(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let identifier = context.parameters.get("survey"), let pages = catalog.surveys[identifier] else {
            return Self.problem(.notFound, "There is no survey with this identifier.")
        }
        let parameters = request.uri.queryParameters
        let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = parameters.get("format"), let format = ExportFormat(rawValue: name) else {
            return Self.problem(.badRequest, "\"format\" must be one of: \(names).")
        }
        var job = ExportJob(task: pages.task, format: format)
        if let status = parameters.get("status") {
            guard ExportJob.statuses.contains(status) else {
                return Self.problem(.badRequest, "\"status\" must be one of: \(ExportJob.statuses.joined(separator: ", ")).")
            }
            job.status = status == "all" ? nil : status
        }
        if let since = parameters.get("since") {
            guard let date = DateTimeParsing.instant(since, defaultZone: TimeZone(identifier: "UTC")!) else {
                return Self.problem(.badRequest, "\"since\" must be an ISO 8601 date or date-time.")
            }
            job.since = date
        }
        for (key, allowed) in [("missing", "codes"), ("bom", "1"), ("includeIdentifiers", "1")] {
            guard let value = parameters.get(key) else { continue }
            guard value == allowed else { return Self.problem(.badRequest, "\"\(key)\" takes only \"\(allowed)\".") }
        }
        job.options = Exporter.Options(byteOrderMark: parameters.get("bom") == "1", missingCodes: parameters.get("missing") == "codes",
                                       includeIdentifiers: parameters.get("includeIdentifiers") == "1")
        let store = runs.store
        let exportJob = job
        // Recorded before anything is sent: an export the log cannot record is refused.
        do {
            try await job.record("export.started", rows: nil, by: actor, in: runs.store)
        } catch {
            throw AuditUnwritten()
        }
        let body = ResponseBody { writer in
            try await exportJob.run(store: store, recordedAs: actor) { piece in
                guard !piece.isEmpty else { return }
                try await writer.write(ByteBuffer(string: piece))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [
            .contentType: format.contentType, .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"\(identifier)-\(format.rawValue).\(format.fileExtension)\"",
        ], body: body)
    }
}
