import Foundation
import JSON

// Choice formats as answerOption lists.

extension QuestionnaireExport.Builder {
    /// The options of a choice format: each choice's FHIR value with its kept extensions, the
    /// initial answer as `initialSelected` (a text scale's `defaultIndex` when there is none),
    /// and the format's display hints. An "other" choice is no option: its item is `open-choice`.
    func choiceMapping(_ format: JSONValue, path: JSONPath, initial: JSONValue?, into mapping: inout FormatMapping) {
        let choices = FHIRExportChoice.choices(of: format, at: path, text: text)
        let formatKind = FHIRExportKind.formatKind(format)
        let scale: TextScaleFormat? = if case .textScale(let scale)? = QuestionnaireExport.Builder.typed(format) { scale } else { nil }
        var selected = initial.map { $0.fxArray ?? [$0] } ?? []
        if initial == nil, let index = scale?.defaultIndex, choices.indices.contains(index) {
            selected = [choices[index].value]
        }
        for value in selected where !choices.contains(where: { $0.value == value && !$0.isOther }) {
            note(path.appending("choices"), "The initial answer \(JSONWriter.string(value, pretty: false)) is not one of the options; FHIR can only preselect options, so it is left out.")
        }
        mapping.options = choices.filter { !$0.isOther }.map { choice in
            var (valueType, value) = choice.fhirValue
            // A coding's display in the survey's other languages.
            if valueType == "Coding", case .object(var coding) = value, let translated = text.translations(choice.source[fx: "text"]) {
                coding["_display"] = translated
                value = .object(coding)
            }
            var extensions = choice.keptExtensions
            if choice.isExclusive { extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.optionExclusive, "Boolean", .bool(true))) }
            return FHIRJSON.object([
                "extension": .array(extensions),
                "value" + valueType: value,
                "initialSelected": selected.contains(choice.value) ? .bool(true) : nil,
            ])
        }
        if choices.contains(where: { !$0.isOther && $0.fhir == nil && $0.value.fxInteger != nil && $0.text != $0.value.fxCodeText }) {
            note(path / "choices", "Choices with number values are FHIR integer options, which have no display; their texts are left out.")
        }
        for (index, choice) in (format[fx: "choices"]?.fxArray ?? []).enumerated() {
            noteUnused(choice, at: path / "choices" / index, used: ["text", "value", "fhir", "extension", "other", "exclusive", "image", "imageAlt"])
        }
        switch formatKind {
        case .valuePicker?:
            mapping.extensions.append(FHIRJSON.itemControl("drop-down"))
        case .imageChoice?:
            note(path / "choices", "FHIR answer options have no images; each choice keeps its text (else its image's alternative text).")
        case .textScale?:
            if scale?.vertical == true {
                mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.choiceOrientation, "Code", .string("vertical")))
            }
        case .textChoice?, .boolean?, .multipleValuePicker?, .scale?, .continuousScale?, .numeric?, .timeOfDay?, .date?,
             .timeInterval?, .text?, .email?, .height?, .weight?, .age?, .location?, .ses?, nil:
            break
        }
    }
}
