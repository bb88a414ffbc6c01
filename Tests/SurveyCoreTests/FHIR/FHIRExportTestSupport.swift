import Foundation
import JSON
@testable import SurveyCore
import Testing

/// Files and JSON for the FHIR export tests.
enum FHIRExportFixtures {
    /// The package root, found from this source file (Tests/SurveyCoreTests/FHIR/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Examples/every-format.json as the file holds it.
    static func everyFormat() throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: packageRoot.appendingPathComponent("Examples/every-format.json")))
    }

    /// JSON written inline in a test.
    static func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
        fhirJSON(text, sourceLocation: sourceLocation)
    }
}

/// Builds run results in the shape of spec §5.
enum FHIRRunResult {
    static let uuid = "9A1C0000-0000-4000-8000-000000000001"

    static func run(_ steps: [JSONValue], finishReason: String? = "completed", identifier: String = "survey") -> JSONValue {
        .object([
            "identifier": .string(identifier),
            "taskRunUUID": .string(uuid),
            "startDate": .string("2026-11-21T10:00:00+01:00"),
            "endDate": .string("2026-11-21T10:05:00+01:00"),
            "finishReason": finishReason.map(JSONValue.string),
            "results": .array(steps),
        ])
    }

    /// A step result; `second` is when the step started, in seconds after 10:00:00.
    static func step(_ identifier: String, _ questions: [JSONValue] = [], second: Int = 1) -> JSONValue {
        .object([
            "identifier": .string(identifier),
            "startDate": .string(time(second)),
            "endDate": .string(time(second + 1)),
            "results": .array(questions),
        ])
    }

    /// A question result with answer keys given as JSON text (`"booleanAnswer": true`).
    static func question(_ identifier: String, _ type: String, _ answerKeys: String = "") -> JSONValue {
        let extra = answerKeys.isEmpty ? "" : ", " + answerKeys
        return FHIRExportFixtures.json("""
        {"type": "\(type)", "identifier": "\(identifier)", "startDate": "\(time(1))", "endDate": "\(time(2))"\(extra)}
        """)
    }

    static func time(_ second: Int) -> String {
        let minutes = second / 60
        let seconds = second % 60
        return "2026-11-21T10:" + (minutes < 10 ? "0" : "") + "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds)+01:00"
    }
}

/// FHIR JSON forbids null values, empty strings, and empty arrays and objects: records an
/// issue, with its path, for each one in `value`.
func expectFHIRClean(_ value: JSONValue, at path: String = "$", sourceLocation: SourceLocation = #_sourceLocation) {
    switch value {
    case .null:
        Issue.record("\(path) is null", sourceLocation: sourceLocation)
    case .string(let text):
        if text.isEmpty { Issue.record("\(path) is an empty string", sourceLocation: sourceLocation) }
    case .array(let elements):
        if elements.isEmpty { Issue.record("\(path) is an empty array", sourceLocation: sourceLocation) }
        for (index, element) in elements.enumerated() { expectFHIRClean(element, at: "\(path)[\(index)]", sourceLocation: sourceLocation) }
    case .object(let object):
        if object.isEmpty { Issue.record("\(path) is an empty object", sourceLocation: sourceLocation) }
        for entry in object.entries { expectFHIRClean(entry.value, at: "\(path).\(entry.key)", sourceLocation: sourceLocation) }
    case .bool, .number:
        break
    }
}

/// The first item with the linkId, searched depth first through `item` arrays.
func fhirItem(_ linkId: String, in node: JSONValue) -> JSONValue? {
    if node[fx: "linkId"]?.fxString == linkId, node[fx: "resourceType"] == nil { return node }
    for child in node[fx: "item"]?.fxArray ?? [] {
        if let found = fhirItem(linkId, in: child) { return found }
    }
    return nil
}

/// The linkIds of the items directly inside `node`.
func fhirChildLinkIds(_ node: JSONValue?) -> [String] {
    (node?[fx: "item"]?.fxArray ?? []).compactMap { $0[fx: "linkId"]?.fxString }
}

/// The extension with the URL on `node`.
func fhirExtension(_ url: String, on node: JSONValue?) -> JSONValue? {
    node?[fx: "extension"]?.fxArray?.first { $0[fx: "url"]?.fxString == url }
}
