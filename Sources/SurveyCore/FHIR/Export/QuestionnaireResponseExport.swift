import Foundation
import JSON

/// A run's result (spec §5) as an R4 QuestionnaireResponse, for an EHR (docs/fhir.md).
///
/// Pure JSON to JSON: the survey file's JSON as the server writes it and the run's result
/// JSON in, FHIR JSON out. The items are nested as `QuestionnaireExport` nests the
/// Questionnaire's: a form step is a group holding its questions (and nested groups), a
/// question step a question at the top level; instruction, completion, review and video
/// steps leave nothing. Only answered questions appear, and a group left empty does not.
public enum QuestionnaireResponseExport {
    /// The run's result as an R4 QuestionnaireResponse.
    /// `context` gives the response its `subject` and `encounter`.
    public static func response(survey: JSONValue, result: JSONValue, surveyVersion: String?, context: FHIRRunContext? = nil) -> JSONValue {
        let reading = FHIRExportSurvey(survey)
        let uuid = result[fx: "taskRunUUID"]?.fxText?.lowercased()
        return FHIRJSON.object([
            "resourceType": .string("QuestionnaireResponse"),
            "id": FHIRJSON.string(uuid),
            "extension": .array(FHIRStepTiming.extensions(result: result, survey: reading)),
            "identifier": uuid.map { .object(["system": .string(FHIRExportURL.uri), "value": .string("urn:uuid:" + $0)]) },
            "questionnaire": .string(canonical(survey: survey, surveyVersion: surveyVersion)),
            "status": .string(status(result[fx: "finishReason"]?.fxString)),
            "subject": context?.subject.map(JSONValue.object),
            "encounter": context?.encounter.map(JSONValue.object),
            "authored": FHIRJSON.string(result[fx: "endDate"]?.fxString),
            "item": .array(items(result: result, survey: reading)),
        ])
    }

    /// Responses as a Bundle of type collection (entries with fullUrl urn:uuid:<id>).
    public static func bundle(_ responses: [JSONValue]) -> JSONValue {
        let entries = responses.map { response -> JSONValue in
            FHIRJSON.object([
                "fullUrl": response[fx: "id"]?.fxText.map { .string("urn:uuid:" + $0) },
                "resource": response,
            ])
        }
        return FHIRJSON.object([
            "resourceType": .string("Bundle"),
            "type": .string("collection"),
            "entry": .array(entries),
        ])
    }

    /// A response and the Observations extracted from it as the entries of a transaction
    /// Bundle: each is created unless the EHR already has a resource with its identifier, so a
    /// Bundle sent twice (a webhook retried) makes nothing twice.
    public static func transactionEntries(survey: JSONValue, response: JSONValue) -> [JSONValue] {
        guard let id = response[fx: "id"]?.fxText else { return [] }
        let fullUrl = "urn:uuid:" + id
        let observations = ObservationExtract.observations(survey: survey, response: response, responseReference: fullUrl)
        return [transactionEntry(response, fullUrl: fullUrl)]
            + observations.map { transactionEntry($0, fullUrl: "urn:uuid:" + ($0[fx: "id"]?.fxText ?? "")) }
    }

    static func transactionEntry(_ resource: JSONValue, fullUrl: String) -> JSONValue {
        let type = resource[fx: "resourceType"]?.fxString ?? ""
        return .object([
            "fullUrl": .string(fullUrl),
            "resource": resource,
            "request": .object([
                "method": .string("POST"),
                "url": .string(type),
                "ifNoneExist": .string("identifier=" + FHIRExportURL.uri + "|" + fullUrl),
            ]),
        ])
    }

    /// One response and its Observations as a transaction Bundle.
    public static func transaction(survey: JSONValue, response: JSONValue) -> JSONValue {
        transaction(transactionEntries(survey: survey, response: response))
    }

    /// Entries as a Bundle of type transaction.
    public static func transaction(_ entries: [JSONValue]) -> JSONValue {
        FHIRJSON.object(["resourceType": .string("Bundle"), "type": .string("transaction"), "entry": .array(entries)])
    }

    /// The canonical the response points at: the survey's `fhir.url` with its `fhir.version` when it has one (the Questionnaire as the EHR knows it); else "urn:survey-presenter:questionnaire:<identifier>|<survey version>".
    public static func canonical(survey: JSONValue, surveyVersion: String?) -> String {
        let base = QuestionnaireExport.url(survey: survey)
        // A Questionnaire that came from an EHR is named as the EHR knows it: its own version or none.
        let ownURL = survey[fx: "fhir"]?[fx: "url"]?.fxText != nil
        let version = ownURL ? survey[fx: "fhir"]?[fx: "version"]?.fxCodeText : QuestionnaireExport.version(survey: survey, surveyVersion: surveyVersion)
        guard let version else { return base }
        return base + "|" + version
    }

    /// The response status for a result's `finishReason`: a finished run is `completed`, a
    /// saved or still running one `in-progress`, one that ended any other way `stopped`.
    static func status(_ finishReason: String?) -> String {
        switch finishReason {
        case "completed": return "completed"
        case nil, "saved": return "in-progress"
        default: return "stopped"
        }
    }
}
