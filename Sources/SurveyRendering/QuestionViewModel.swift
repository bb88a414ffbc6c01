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

    private func html(_ text: LocalizedText?) -> String? {
        texts.html(text, language: language, fallback: fallback)?.html
    }

    private func plain(_ text: LocalizedText?) -> String? {
        texts.plain(text, language: language, fallback: fallback)
    }

    func context() -> [String: Any] {
        let hintID = PageIDs.hint(name)
        var describedIDs: [String] = []
        if detail != nil { describedIDs.append(hintID) }
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
        switch format {
        case .boolean(let boolean):
            let options = [("true", html(boolean.yes) ?? catalog["yes"]), ("false", html(boolean.no) ?? catalog["no"])]
            context["options"] = options.enumerated().map { index, option in
                self.option(index: index, value: option.0, label: option.1)
            }
            context["inline"] = true
        case .textChoice(let choice):
            context["options"] = textOptions(choice.choices, exclusiveDivider: choice.style == .multipleChoice)
            context[choice.style == .multipleChoice ? "multiple" : "single"] = true
        case .textScale(let scale):
            context["options"] = textOptions(scale.choices, exclusiveDivider: false)
            context["single"] = true
            context["vertical"] = scale.vertical ?? false
        case .valuePicker(let picker):
            context["select"] = select(name: name, id: PageIDs.field(name), label: nil, choices: picker.choices)
        case .multipleValuePicker(let picker):
            context["selects"] = picker.pickers.enumerated().map { index, choices in
                let field = AnswerFields.picker(name, index)
                return select(name: field, id: field, label: "\(index + 1)", choices: choices)
            }
        case .imageChoice(let image):
            context["options"] = image.choices.enumerated().map { index, choice -> [String: Any] in
                var option = self.option(index: index, value: choice.value.formValue, label: html(choice.text) ?? "")
                option["image"] = "/" + choice.image.drop { $0 == "/" }
                option["alt"] = plain(choice.imageAlt) ?? ""
                option["hasText"] = choice.text != nil
                return option
            }
            context[image.effectiveStyle == .multipleChoice ? "multiple" : "single"] = true
        case .scale(let scale):
            context["options"] = scale.values.enumerated().map { index, value in
                option(index: index, value: String(value), label: String(value))
            }
            context["minimumDescription"] = html(scale.minimumValueDescription) ?? ""
            context["maximumDescription"] = html(scale.maximumValueDescription) ?? ""
            context["hasDescriptions"] = scale.minimumValueDescription != nil || scale.maximumValueDescription != nil
            context["vertical"] = scale.vertical ?? false
            context["single"] = true
        case .ses(let ses):
            context["options"] = (1...SESFormat.rungCount).reversed().enumerated().map { index, rung -> [String: Any] in
                var label = catalog.format("rung", rung)
                if rung == SESFormat.rungCount { label += " – " + (html(ses.topRungText) ?? catalog["topRung"]) }
                if rung == 1 { label += " – " + (html(ses.bottomRungText) ?? catalog["bottomRung"]) }
                return option(index: index, value: String(rung), label: label)
            }
            context["single"] = true
        case .continuousScale(let scale):
            let unit = scale.isPercent ? "%" : nil
            context["input"] = input(inputMode: scale.fractionDigits > 0 ? "decimal" : "numeric", suffix: unit, width: "width-5", describedIDs: describedIDs)
            if let low = html(scale.minimumValueDescription) { context["minimumDescription"] = low }
            if let high = html(scale.maximumValueDescription) { context["maximumDescription"] = high }
            let factor = scale.isPercent ? 100.0 : 1.0
            context["range"] = "\(JSONWriter.number(scale.minimum * factor))–\(JSONWriter.number(scale.maximum * factor))\(unit ?? "")"
        case .numeric(let numeric):
            let mode = numeric.effectiveStyle == .integer && (numeric.minimum ?? 0) >= 0 ? "numeric" : "decimal"
            context["input"] = input(inputMode: mode, suffix: numeric.shownUnit, width: "width-5", describedIDs: describedIDs)
        case .timeOfDay:
            context["input"] = input(type: "time", width: "width-5", describedIDs: describedIDs)
            context["timeHint"] = catalog["timeHint"]
        case .date(let date):
            var parts = [
                part("day", catalog["day"], width: "width-2", inputMode: "numeric"),
                part("month", catalog["month"], width: "width-2", inputMode: "numeric"),
                part("year", catalog["year"], width: "width-4", inputMode: "numeric"),
            ]
            if date.effectiveStyle == .dateAndTime {
                parts.append(part("time", catalog["time"], width: "width-5", inputMode: nil, type: "time"))
            }
            context["parts"] = parts
            context["dateHint"] = catalog["dateHint"]
            context["group"] = true
        case .timeInterval:
            context["parts"] = [part("hours", catalog["hours"], width: "width-2", inputMode: "numeric"),
                                part("minutes", catalog["minutes"], width: "width-2", inputMode: "numeric")]
            context["group"] = true
        case .text(let text):
            if text.multipleLines == true {
                var textarea: [String: Any] = [
                    "id": PageIDs.field(name), "name": name, "text": slots.marker(.text(name)),
                    "inputError": slots.marker(.inputError(field: name)), "invalid": slots.marker(.invalid(field: name)),
                    "describedBy": slots.marker(.describedBy(question: name, ids: describedIDs + (text.lengthLimit != nil ? ["\(name):count"] : []))),
                ]
                if let limit = text.lengthLimit { textarea["maxlength"] = String(limit) }
                context["textarea"] = textarea
            } else {
                context["input"] = input(spellcheck: true, maxLength: text.lengthLimit,
                                         describedIDs: describedIDs + (text.lengthLimit != nil ? ["\(name):count"] : []))
            }
            if let limit = text.lengthLimit {
                context["characterLimit"] = catalog.format("characterLimit", limit)
                context["countID"] = "\(name):count"
            }
        case .email:
            context["input"] = input(type: "email", autocomplete: "email", spellcheck: false, width: "width-30", describedIDs: describedIDs)
        case .location:
            context["input"] = input(describedIDs: describedIDs)
        case .age:
            context["input"] = input(inputMode: "numeric", width: "width-3", describedIDs: describedIDs)
        case .height(let height):
            if measurement(height.measurementSystem) == .USC {
                context["parts"] = [part("feet", catalog["feet"], width: "width-2", inputMode: "numeric"),
                                    part("inches", catalog["inches"], width: "width-2", inputMode: "decimal")]
                context["group"] = true
            } else {
                context["input"] = input(inputMode: "decimal", suffix: "cm", width: "width-4", describedIDs: describedIDs)
            }
        case .weight(let weight):
            let system = measurement(weight.measurementSystem)
            if system == .USC, weight.numericPrecision == .high {
                context["parts"] = [part("pounds", catalog["pounds"], width: "width-3", inputMode: "numeric"),
                                    part("ounces", catalog["ounces"], width: "width-2", inputMode: "numeric")]
                context["group"] = true
            } else {
                context["input"] = input(inputMode: "decimal", suffix: system == .USC ? "lb" : "kg", width: "width-4", describedIDs: describedIDs)
            }
        }
        let grouped = context["options"] != nil || context["parts"] != nil || context["selects"] != nil
        context["fieldset"] = grouped
        context["describedBy"] = slots.marker(.describedBy(question: name, ids: grouped ? describedIDs : []))
        return context
    }

    private func option(index: Int, value: String, label: String) -> [String: Any] {
        [
            "id": PageIDs.option(name, index), "name": name, "value": value, "label": label,
            "checked": slots.marker(.checked(field: name, value: value)),
        ]
    }

    private func textOptions(_ choices: [TextChoice], exclusiveDivider: Bool) -> [[String: Any]] {
        let exclusives = choices.indices.filter { choices[$0].isExclusive }
        return choices.enumerated().map { index, choice -> [String: Any] in
            var option = self.option(index: index, value: choice.value.formValue, label: html(choice.text) ?? "")
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

    private func select(name field: String, id: String, label: String?, choices: [TextChoice]) -> [String: Any] {
        [
            "name": field, "id": id, "label": label ?? "",
            "placeholder": catalog["selectPlaceholder"],
            "placeholderSelected": slots.marker(.selected(field: field, value: "")),
            "inputError": slots.marker(.inputError(field: field)), "invalid": slots.marker(.invalid(field: field)),
            "options": choices.map { choice -> [String: Any] in
                ["value": choice.value.formValue, "label": plain(choice.text) ?? "",
                 "selected": slots.marker(.selected(field: field, value: choice.value.formValue))]
            },
        ]
    }

    private func input(type: String = "text", inputMode: String? = nil, autocomplete: String? = nil, spellcheck: Bool? = nil,
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

    private func part(_ suffix: String, _ label: String, width: String, inputMode: String?, type: String = "text") -> [String: Any] {
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
