import Foundation
import JSON
import SurveyCore
import SurveyStorage

/// A run's result in the shape of spec §5, in its survey's time zone.
struct RunResult {
    let result: TaskResult
    let timeZone: TimeZone
    let survey: RunnableSurvey
    /// The subject and encounter the FHIR forms carry.
    var context: FHIRRunContext?
    /// The run itself, for its consent, and the signed copy the Consent carries inline.
    var run: TaskRun
    var copy: ConsentExport.Copy?

    /// The result as JSON, or in ResearchKit's shape.
    func json(researchKit: Bool) -> JSONValue {
        researchKit ? result.researchKitJSON(in: timeZone) : result.json(in: timeZone)
    }

    /// The result in the shape asked for.
    func json(_ format: ResultFormat) -> JSONValue {
        switch format {
        case .result: return result.json(in: timeZone)
        case .researchKit: return result.researchKitJSON(in: timeZone)
        case .fhir:
            return fhirResponse
        case .fhirTransaction:
            return QuestionnaireResponseExport.transaction(survey: survey.json, response: fhirResponse)
        case .fhirConsent:
            return ConsentExport.resource(task: survey.task, run: run, context: context, copy: copy, timeZone: timeZone) ?? .null
        }
    }

    private var fhirResponse: JSONValue {
        QuestionnaireResponseExport.response(survey: survey.json, result: result.json(in: timeZone), surveyVersion: survey.version, context: context)
    }
}

/// The shapes a run's result is served in: `?format=` on the result and the API.
enum ResultFormat: String, CaseIterable {
    case result = "json"
    case researchKit = "researchkit"
    case fhir
    /// A transaction Bundle: the QuestionnaireResponse and the Observations extracted from it.
    case fhirTransaction = "fhir-transaction"
    /// The run's consent as an R4 Consent, its signed copy inline.
    case fhirConsent = "fhir-consent"

    /// The format a query asks for: none is the result JSON; an unknown name is nil.
    init?(query: String?) {
        guard let query else {
            self = .result
            return
        }
        self.init(rawValue: query)
    }

    /// FHIR resources, served as application/fhir+json.
    var isFHIR: Bool { self == .fhir || self == .fhirTransaction || self == .fhirConsent }

    var contentType: String { isFHIR ? "application/fhir+json; charset=utf-8" : "application/json; charset=utf-8" }

    static var names: String { allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
}

/// Finished runs and their results, for participants; runs made, read, listed and deleted by
/// researchers.
extension RunService {
    /// The session's most recently finished run of a survey, however it finished.
    func finishedRun(_ survey: RunnableSurvey, session: String) async throws -> RunRecord? {
        try await store.lastFinishedRecord(session: session, survey: survey.task.identifier)
    }

    /// The session's most recently finished run of a survey, if it was completed.
    func completedRun(_ survey: RunnableSurvey, session: String) async throws -> RunRecord? {
        guard let record = try await finishedRun(survey, session: session), record.run.finishReason == .completed else { return nil }
        return record
    }

    /// The visit of a completed run's completion step, when it ended on one.
    func completionVisit(of record: RunRecord, in survey: RunnableSurvey) -> Int? {
        guard let last = record.run.visits.last, survey.navigator.step(of: last)?.isCompletion == true else { return nil }
        return record.run.visits.count - 1
    }

    /// A run's result; a run saved for later reports `finishReason: saved`. Without
    /// `identifiers`, the answers that identify the participant are left out (the researcher's
    /// reads, as the exports do).
    func result(of record: RunRecord, in survey: RunnableSurvey, identifiers: Bool = true) -> RunResult {
        var result = survey.navigator.result(of: record.run, now: record.updatedAt)
        if !identifiers { result = result.withoutIdentifying(in: survey.task) }
        if record.savedAt != nil, result.finishReason == nil { result.finishReason = .saved }
        return RunResult(result: result, timeZone: survey.navigator.timeZone, survey: survey, context: record.fhirContext, run: record.run)
    }

    // MARK: The researcher's runs

    /// A run made through the API. It belongs to no browser until someone opens its start
    /// link, the only way in: it has no short code until its participant saves.
    func create(_ survey: RunnableSurvey, participant: String?, returnURL: String?,
                fhirContext: FHIRRunContext? = nil, parameters: [String: String] = [:], by actor: AuditActor) async throws -> (RunRecord, ResumeTicket) {
        let now = clock()
        let run = survey.navigator.start(uuid: UUID(), now: now, parameters: parameters)
        let ticket = ResumeTicket.make(now: now, lifetime: resumeLifetime, withCode: false)
        var record = RunRecord(run: run, surveyIdentifier: survey.task.identifier, sessionID: "unclaimed",
                               updatedAt: now, resume: ticket, externalID: participant, returnURL: returnURL,
                               surveyVersion: survey.version, fhirContext: fhirContext)
        let parameters: JSONValue = .object([
            "participantId": participant.map(JSONValue.string), "returnURL": returnURL.map(JSONValue.string),
            "subject": fhirContext?.subject.map(JSONValue.object), "encounter": fhirContext?.encounter.map(JSONValue.object),
            "parameters": parameters.isEmpty ? nil : .object(JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
        record.audit.pending = [auditEvent("run.created", on: record, by: actor,
                                           detail: .object(["via": .string("api"), "surveyVersion": .string(survey.version)]),
                                           content: .json(parameters))]
        record = try await store.insert(record)
        metrics.countRunStarted()
        return (record, ticket)
    }

    func run(id: UUID) async throws -> RunRecord? {
        try await store.record(id: id)
    }

    /// Runs matching a query, most recently updated first.
    func runs(matching query: RunQuery) async throws -> [RunRecord] {
        try await store.records(matching: query)
    }

    /// Deletes a run and its answers, erasing them from its audit chain; false when there is none with this id.
    func delete(id: UUID, reason: String, by actor: AuditActor) async throws -> Bool {
        guard try await store.record(id: id) != nil else { return false }
        try await store.delete(id: id, erasure: .erasure(reason: reason, by: actor, at: clock()))
        return true
    }
}
