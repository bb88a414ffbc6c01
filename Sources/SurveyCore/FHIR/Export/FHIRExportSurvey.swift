import Foundation
import JSON

/// A survey file's JSON as the FHIR exports read it: its steps by identifier, the linkIds
/// its steps and questions take, and the questions a predicate's `result` names.
///
/// LinkIds: a step's is its `fhir.linkId`, else its identifier; a form question's is its
/// `fhir.linkId`, else `<stepId>.<itemId>`.
struct FHIRExportSurvey {
    let json: JSONValue
    let text: FHIRExportText
    let steps: [JSONValue]
    private let stepIndex: [String: Int]

    init(_ survey: JSONValue) {
        json = survey
        text = FHIRExportText(survey: survey)
        steps = (survey[fx: "steps"]?.fxArray ?? []).map(Self.asFHIRStep)
        var index: [String: Int] = [:]
        for (position, step) in steps.enumerated() {
            if let identifier = step[fx: "identifier"]?.fxString, index[identifier] == nil { index[identifier] = position }
        }
        stepIndex = index
    }

    /// A consent step as the step FHIR has for it: the visual consent an instruction (a display
    /// item), the sharing choice a boolean question, the review a group of Agree, the typed names
    /// and certification (a drawing is path data, which FHIR has no use for).
    static func asFHIRStep(_ step: JSONValue) -> JSONValue {
        guard case .object(let object) = step, case .string(let type)? = object["type"] else { return step }
        // The names are optional here: an export leaves identifying answers out unless asked.
        func item(_ identifier: String, _ text: String, _ format: String, optional: Bool = false) -> JSONValue {
            .object(["identifier": .string(identifier), "text": .string(text), "optional": .bool(optional),
                     "answerFormat": .object(["type": .string(format)])])
        }
        var rewritten = JSONObject()
        for key in ["identifier", "title", "text", "fhir"] { rewritten[key] = object[key] }
        switch type {
        case "visualConsent":
            rewritten["type"] = .string("instruction")
        case "consentSharing":
            rewritten["type"] = .string("question")
            rewritten["title"] = object["title"] ?? .string("Sharing options")
            rewritten["optional"] = .bool(false)
            rewritten["answerFormat"] = .object(["type": .string("boolean")])
        case "consentReview":
            let fields = ConsentReviewContent.Field.self
            rewritten["type"] = .string("form")
            rewritten["optional"] = .bool(false)
            rewritten["items"] = .array([item(fields.consented, "I agree to take part", "boolean"), item(fields.givenName, "Given name", "text", optional: true),
                                         item(fields.familyName, "Family name", "text", optional: true), item(fields.certified, "I certify that this is correct", "boolean")])
        default:
            return step
        }
        return .object(rewritten)
    }

    var identifier: String { json[fx: "identifier"]?.fxString ?? "survey" }
    var fhir: JSONValue? { json[fx: "fhir"] }

    func step(_ identifier: String) -> (index: Int, json: JSONValue)? {
        stepIndex[identifier].map { ($0, steps[$0]) }
    }

    static func stepLinkId(_ step: JSONValue) -> String {
        step[fx: "fhir"]?[fx: "linkId"]?.fxText ?? step[fx: "identifier"]?.fxString ?? ""
    }

    static func questionLinkId(_ item: JSONValue, stepIdentifier: String) -> String {
        item[fx: "fhir"]?[fx: "linkId"]?.fxText ?? stepIdentifier + "." + (item[fx: "identifier"]?.fxString ?? "")
    }

    /// A question a predicate's `result` names: `stepId` for a question step, `stepId.itemId` for a form question.
    struct Target {
        /// The question step, or the form question.
        let question: JSONValue
        let linkId: String
        let path: JSONPath
    }

    func target(_ selector: String) -> Target? {
        if let (index, step) = step(selector), step[fx: "type"]?.fxString == "question" {
            return Target(question: step, linkId: Self.stepLinkId(step), path: .root / "steps" / index)
        }
        var dot = selector.startIndex
        while let found = selector[dot...].firstIndex(of: ".") {
            let stepIdentifier = String(selector[..<found])
            let itemIdentifier = String(selector[selector.index(after: found)...])
            if let (index, step) = step(stepIdentifier), let items = step[fx: "items"]?.fxArray,
               let position = items.firstIndex(where: { $0[fx: "identifier"]?.fxString == itemIdentifier }) {
                return Target(question: items[position], linkId: Self.questionLinkId(items[position], stepIdentifier: stepIdentifier),
                              path: .root / "steps" / index / "items" / position)
            }
            dot = selector.index(after: found)
        }
        return nil
    }
}
