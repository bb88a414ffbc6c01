import Foundation
import JSON

// A form step as a group: its intro texts, its questions and notes (nested in groups as
// `FHIRFormGroup` lays them out), and its footer text.

extension QuestionnaireExport.Builder {
    func formGroup(_ step: JSONValue, path: JSONPath, condition: FHIRExportCondition?) -> JSONValue {
        let stepIdentifier = step[fx: "identifier"]?.fxString ?? ""
        let items = step[fx: "items"]?.fxArray ?? []
        let layout = FHIRFormGroup.layout(of: step)

        func build(_ group: FHIRFormGroup) -> [JSONValue] {
            group.entries.map { entry -> JSONValue in
                switch entry {
                case .group(let nested):
                    let section = nested.section.map { items[$0] }
                    if let index = nested.section {
                        noteUnused(items[index], at: path / "items" / index, used: ["sectionTitle", "detailText", "fhir"])
                    }
                    let intro = section.map { textDisplays($0, keys: ["detailText"], linkId: nested.linkId) } ?? []
                    return self.group(linkId: nested.linkId, text: section.flatMap { text.plain($0[fx: "sectionTitle"]) },
                                      translated: section?[fx: "sectionTitle"], fhir: section?[fx: "fhir"], condition: nil, extensions: [], items: intro + build(nested))
                case .question(let index):
                    return formQuestion(items[index], path: path / "items" / index, stepIdentifier: stepIdentifier)
                case .note(let index, let linkId):
                    let note = items[index]
                    let itemPath = path / "items" / index
                    noteUnused(note, at: itemPath, used: ["note", "visibleIf", "fhir"])
                    let condition = note[fx: "visibleIf"].flatMap { enableCondition($0, at: itemPath / "visibleIf", negated: false) }
                    return display(linkId: linkId, text: text.plain(note[fx: "note"]), translated: note[fx: "note"], fhir: note[fx: "fhir"],
                                   condition: condition)
                }
            }
        }

        let intro = textDisplays(step, keys: ["text", "detailText"], linkId: layout.linkId)
        let footer = textDisplays(step, keys: ["footerText"], linkId: layout.linkId)
        // A repeating form is a repeating group, its limits in minOccurs and maxOccurs; a grid
        // asks for a table of questions by answers (docs/repeats-and-grids.md).
        let repeating = step[fx: "repeat"]
        let minimum = repeating?[fx: "minimum"]?.fxNumber.map(Int.init) ?? 0
        var extensions = variables(step[fx: "variables"])
        if let repeating {
            if minimum > 1 { extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.minOccurs, "Integer", .number(Double(minimum)))) }
            if let maximum = repeating[fx: "maximum"]?.fxNumber {
                extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.maxOccurs, "Integer", .number(maximum)))
            }
        }
        if step[fx: "grid"] == .bool(true) { extensions.append(FHIRJSON.itemControl("table")) }
        let made = group(linkId: layout.linkId, text: text.plain(step[fx: "title"]), translated: step[fx: "title"], fhir: step[fx: "fhir"],
                         condition: condition, extensions: extensions, items: intro + build(layout) + footer)
        guard repeating != nil, case .object(var object) = made else { return made }
        object["repeats"] = .bool(true)
        if minimum > 0 { object["required"] = .bool(true) }
        return .object(object)
    }

    private func formQuestion(_ item: JSONValue, path: JSONPath, stepIdentifier: String) -> JSONValue {
        let condition = item[fx: "visibleIf"].flatMap { enableCondition($0, at: path / "visibleIf", negated: false) }
        return questionItem(item, path: path, linkId: FHIRExportSurvey.questionLinkId(item, stepIdentifier: stepIdentifier),
                            text: text.plain(item[fx: "text"]), translated: item[fx: "text"], hintKeys: ["detailText"], condition: condition,
                            used: ["identifier", "text", "detailText", "optional", "visibleIf", "variables", "fhir"])
    }
}
