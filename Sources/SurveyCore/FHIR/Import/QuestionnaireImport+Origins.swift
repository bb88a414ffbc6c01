import Foundation
import JSON

extension QuestionnaireImport {
    /// Where each part of an imported survey came from in its Questionnaire, so that a finding
    /// of the survey's checker is told about the Questionnaire the clinic has: at the path of
    /// the item it was made from, naming its linkId, never at a path of the survey made from it.
    struct Origins {
        /// The Questionnaire path of each item, by linkId.
        let items: [String: JSONPath]
        /// Where each item's expressions sit, by linkId and survey key.
        let expressions: [String: [String: JSONPath]]
        /// The linkId each survey step or form item was made from, by its survey path.
        private var madeFrom: [JSONPath: String] = [:]
        /// The linkId of each step, by step identifier, for the skip rules named after steps.
        private var stepLinkIds: [String: String] = [:]

        init(survey: JSONValue, items: [String: JSONPath], expressions: [String: [String: JSONPath]]) {
            self.items = items
            self.expressions = expressions
            guard case .object(let root) = survey, case .array(let steps)? = root["steps"] else { return }
            for (index, step) in steps.enumerated() {
                guard case .object(let object) = step else { continue }
                let path = JSONPath.root / "steps" / index
                if let linkId = Self.linkId(object) {
                    madeFrom[path] = linkId
                    if case .string(let identifier)? = object["identifier"] { stepLinkIds[identifier] = linkId }
                }
                guard case .array(let formItems)? = object["items"] else { continue }
                for (position, item) in formItems.enumerated() {
                    if case .object(let itemObject) = item, let linkId = Self.linkId(itemObject) {
                        madeFrom[path / "items" / position] = linkId
                    }
                }
            }
        }

        private static func linkId(_ object: JSONObject) -> String? {
            guard case .object(let fhir)? = object["fhir"], case .string(let linkId)? = fhir["linkId"] else { return nil }
            return linkId
        }

        /// The finding placed on the Questionnaire: at the item the survey's part was made from,
        /// with its linkId, or at the Questionnaire itself for a part made from no one item.
        func placed(_ diagnostic: Diagnostic) -> Diagnostic {
            let components = diagnostic.path.components
            var linkId = diagnostic.path.nearest(in: madeFrom)
            if linkId == nil, components.count >= 2, components[0] == .key("skipRules"), case .key(let step) = components[1] {
                linkId = stepLinkIds[step]
            }
            guard let linkId, let path = items[linkId] else {
                return Diagnostic(diagnostic.severity, .root, "The Questionnaire: \(diagnostic.message)")
            }
            // A finding about an expression is placed on the expression itself.
            let keys = components.compactMap { component -> String? in
                if case .key(let key) = component { return key }
                return nil
            }
            let expression = keys.reversed().lazy.compactMap { self.expressions[linkId]?[$0] }.first
            return Diagnostic(diagnostic.severity, expression ?? path, "The item '\(linkId)': \(diagnostic.message)")
        }
    }
}
