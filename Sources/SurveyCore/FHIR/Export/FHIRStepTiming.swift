import Foundation
import JSON

/// The presenter's timing extensions on a QuestionnaireResponse.
///
/// FHIR has no place for when each page was shown, so the response root carries:
///
/// - `urn:survey-presenter:fhir:step-timing`, once per step result in path order, with
///   sub-extensions `linkId` (valueString: the step's linkId, its `fhir.linkId` else its
///   identifier), `start` and `end` (valueDateTime: the step result's `startDate` and
///   `endDate`, ISO 8601 with offset as the result records them);
/// - `urn:survey-presenter:fhir:run-timing`, once, with `start` and `end` (the run's).
///
/// A step result without a date leaves that sub-extension out; one with neither date is
/// not written.
///
/// ```json
/// { "url": "urn:survey-presenter:fhir:step-timing",
///   "extension": [ { "url": "linkId", "valueString": "fever" },
///                  { "url": "start", "valueDateTime": "2026-11-21T10:00:05+01:00" },
///                  { "url": "end", "valueDateTime": "2026-11-21T10:00:09+01:00" } ] }
/// ```
enum FHIRStepTiming {
    /// The timing extensions of a run's result.
    static func extensions(result: JSONValue, survey: FHIRExportSurvey) -> [JSONValue] {
        var extensions: [JSONValue] = []
        if let run = timing(url: FHIRExportURL.runTiming, linkId: nil, of: result) { extensions.append(run) }
        for stepResult in result[fx: "results"]?.fxArray ?? [] {
            guard let identifier = stepResult[fx: "identifier"]?.fxText else { continue }
            let linkId = survey.step(identifier).map { FHIRExportSurvey.stepLinkId($0.json) } ?? identifier
            if let step = timing(url: FHIRExportURL.stepTiming, linkId: linkId, of: stepResult) { extensions.append(step) }
        }
        return extensions
    }

    private static func timing(url: String, linkId: String?, of result: JSONValue) -> JSONValue? {
        let dates = [("start", result[fx: "startDate"]), ("end", result[fx: "endDate"])].compactMap { entry in
            entry.1?.fxText.map { FHIRJSON.extensionValue(entry.0, "DateTime", .string($0)) }
        }
        guard !dates.isEmpty else { return nil }
        let name = linkId.flatMap(FHIRJSON.string).map { [FHIRJSON.extensionValue("linkId", "String", $0)] } ?? []
        return FHIRJSON.extensionGroup(url, name + dates)
    }
}
