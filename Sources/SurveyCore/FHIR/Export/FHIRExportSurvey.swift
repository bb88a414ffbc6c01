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
        steps = survey[fx: "steps"]?.fxArray ?? []
        var index: [String: Int] = [:]
        for (position, step) in steps.enumerated() {
            if let identifier = step[fx: "identifier"]?.fxString, index[identifier] == nil { index[identifier] = position }
        }
        stepIndex = index
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
