import Foundation
import SurveyCore

/// Builds the Mustache context of one question: its label, hint, error slots and the
/// controls of its answer format. Values, checks and errors are slots, filled per request.
struct QuestionViewModel {
    let name: String
    let format: AnswerFormat
    let label: SanitizedHTML?
    let detail: SanitizedHTML?
    let placeholder: String?
    let isOptional: Bool
    /// A question step's question is the page heading; a form item's is not.
    let isHeading: Bool
    let language: String
    let catalog: Catalog
    let texts: RichTextCache
    let fallback: [String]
    let slots: SlotTable
    /// The measurement system the page uses for "local" height and weight.
    let measurement: (MeasurementSystem?) -> MeasurementSystem

    func html(_ text: LocalizedText?) -> String? {
        texts.html(text, language: language, fallback: fallback)?.html
    }

    func plain(_ text: LocalizedText?) -> String? {
        texts.plain(text, language: language, fallback: fallback)
    }

    /// The hint's id when the question has one: what its controls are described by.
    var describedIDs: [String] { detail != nil ? [PageIDs.hint(name)] : [] }

    func context() -> [String: Any] {
        let hintID = PageIDs.hint(name)
        var context: [String: Any] = [
            "name": name,
            "id": PageIDs.field(name),
            "isHeading": isHeading,
            "label": label?.html ?? HTMLEscaping.escape(name),
            "hintID": hintID,
            "groupError": slots.marker(.groupError(question: name)),
            "error": slots.marker(.error(question: name)),
            "errorID": PageIDs.error(name),
            "type": format.typeName,
        ]
        if let detail { context["detail"] = detail.html }
        if isOptional { context["optional"] = catalog["optional"] }
        context["is_" + format.typeName] = true
        if let option = format.dontKnow, option.show == true {
            context["dontKnow"] = [
                "name": AnswerFields.dontKnow(name),
                "label": html(option.buttonText) ?? catalog["dontKnow"],
            ]
        }
        format.view.addControls(to: &context, self)
        let grouped = context["options"] != nil || context["parts"] != nil || context["selects"] != nil
        context["fieldset"] = grouped
        context["describedBy"] = slots.marker(.describedBy(question: name, ids: grouped ? describedIDs : []))
        return context
    }

    /// One option of a choice. Its own hint, divider and "other" box are false unless set, so
    /// the template never finds the question's own hint in an enclosing context and repeats it.
    func option(index: Int, value: String, label: String) -> [String: Any] {
        [
            "id": PageIDs.option(name, index), "name": name, "value": value, "label": label,
            "checked": slots.marker(.checked(field: name, value: value)),
            "detail": false, "divider": false, "other": false, "orderStart": "", "orderEnd": "",
        ]
    }

    /// The options of a list of choices; a shuffled list marks each so the run's order can place it.
    func textOptions(_ choices: [TextChoice], exclusiveDivider: Bool, shuffled: Bool = false) -> [[String: Any]] {
        let exclusives = choices.indices.filter { choices[$0].isExclusive }
        return choices.enumerated().map { index, choice -> [String: Any] in
            var option = self.option(index: index, value: choice.value.formValue, label: html(choice.text) ?? "")
            // A shuffled list, or one whose choices may be hidden, marks each so the run's page can place it.
            if shuffled || choices.contains(where: { $0.visibleIf != nil }) {
                option["orderStart"] = slots.marker(.orderedItem(list: name, index: index))
                option["orderEnd"] = slots.marker(.orderedItemEnd)
            }
            if let detail = html(choice.detailText) {
                option["detail"] = detail
                option["detailID"] = PageIDs.optionHint(name, index)
            }
            if exclusiveDivider, choice.isExclusive, index > 0, !exclusives.contains(index - 1) {
                option["divider"] = catalog["or"]
            }
            if let other = choice.other {
                let field = AnswerFields.other(name, choiceIndex: index, in: choices)
                option["other"] = [
                    "name": field, "id": field, "value": slots.marker(.value(field)),
                    "label": plain(other.placeholder) ?? catalog["otherPlaceholder"],
                    "inputError": slots.marker(.inputError(field: field)), "invalid": slots.marker(.invalid(field: field)),
                ] as [String: Any]
            }
            return option
        }
    }

    func select(name field: String, id: String, label: String?, choices: [TextChoice]) -> [String: Any] {
        [
            "name": field, "id": id, "label": label ?? "",
            "placeholder": catalog["selectPlaceholder"],
            "placeholderSelected": slots.marker(.selected(field: field, value: "")),
            "inputError": slots.marker(.inputError(field: field)), "invalid": slots.marker(.invalid(field: field)),
            "options": choices.enumerated().map { index, choice -> [String: Any] in
                let filtered = choices.contains { $0.visibleIf != nil }
                return ["value": choice.value.formValue, "label": plain(choice.text) ?? "",
                        "selected": slots.marker(.selected(field: field, value: choice.value.formValue)),
                        "orderStart": filtered ? slots.marker(.orderedItem(list: field, index: index)) : "",
                        "orderEnd": filtered ? slots.marker(.orderedItemEnd) : ""]
            },
        ]
    }

    func input(type: String = "text", inputMode: String? = nil, autocomplete: String? = nil, spellcheck: Bool? = nil,
                       suffix: String? = nil, width: String? = nil, maxLength: Int? = nil, describedIDs: [String]) -> [String: Any] {
        var input: [String: Any] = [
            "id": PageIDs.field(name), "name": name, "type": type,
            "value": slots.marker(.value(name)),
            "inputError": slots.marker(.inputError(field: name)), "invalid": slots.marker(.invalid(field: name)),
            "describedBy": slots.marker(.describedBy(question: name, ids: describedIDs)),
        ]
        if let inputMode { input["inputmode"] = inputMode }
        if let autocomplete { input["autocomplete"] = autocomplete }
        if let spellcheck { input["spellcheck"] = spellcheck ? "true" : "false" }
        if let suffix { input["suffix"] = suffix }
        if let width { input["width"] = width }
        if let maxLength { input["maxlength"] = String(maxLength) }
        if let placeholder { input["placeholder"] = placeholder }
        return input
    }

    func part(_ suffix: String, _ label: String, width: String, inputMode: String?, type: String = "text") -> [String: Any] {
        let field = "\(name).\(suffix)"
        var part: [String: Any] = [
            "id": field, "name": field, "label": label, "width": width, "type": type,
            "value": slots.marker(.value(field)),
            "inputError": slots.marker(.inputError(field: field)), "invalid": slots.marker(.invalid(field: field)),
        ]
        if let inputMode { part["inputmode"] = inputMode }
        return part
    }
}
