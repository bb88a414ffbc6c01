import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The form items for the children of a group, nested groups flattened into a section
    /// header followed by their items.
    ///
    /// - Parameters:
    ///   - within: the linkIds of the nested groups around these items, outermost first.
    ///   - conditions: the conditions of those groups; each holds for every item inside.
    ///   - hidden: a group around these items is hidden, so questions are hidden and texts dropped.
    ///   - variables: the form step's variables, to which nested groups add theirs.
    func formItems(_ items: [Item], within: [String], conditions: [JSONValue], hidden: Bool, variables: inout [JSONValue]) -> [JSONValue] {
        var result: [JSONValue] = []
        for item in items {
            let own = condition(for: item)
            let isHidden = hidden || item.hidden
            let visibleIf = Self.allOf(conditions + [own].compactMap { $0 })
            switch item.type {
            case "group":
                variables += item.variables
                let inner = formItems(item.children, within: within + [item.linkId], conditions: conditions + [own].compactMap { $0 },
                                      hidden: isHidden, variables: &variables)
                if item.children.isEmpty {
                    warning(item.path, "The group '\(item.linkId)' has no items, so it shows nothing.")
                }
                if !isHidden, !inner.isEmpty { result.append(.object(sectionHeader(item, within: within))) }
                result += inner
            case "display":
                guard !isHidden else { continue }
                result.append(.object(Self.fields([
                    "note": json(item.shownText) ?? .string(""), "visibleIf": visibleIf, "fhir": details(of: item, within: within, withType: false),
                ])))
            default:
                guard item.isQuestion else { continue }
                var question = Self.fields([
                    "identifier": .string(item.identifier), "text": json(item.shownText),
                    "detailText": json(item.detail),
                ])
                for (key, value) in item.question.entries { question[key] = value }
                if isHidden { question["hidden"] = .bool(true) }
                if !item.variables.isEmpty { question["variables"] = .array(item.variables) }
                question["visibleIf"] = visibleIf
                question["fhir"] = details(of: item, within: within, withType: true)
                result.append(.object(question))
            }
        }
        return result
    }

    /// The header that opens a nested group; one without text is headed by its linkId.
    private func sectionHeader(_ group: Item, within: [String]) -> JSONObject {
        var title = group.shownText
        if title == nil {
            warning(group.path, "The group '\(group.linkId)' has no text, so its section is headed by its linkId.")
            title = Phrase(group.linkId)
        }
        return Self.fields(["sectionTitle": json(title), "fhir": details(of: group, within: within, withType: false)])
    }
}
