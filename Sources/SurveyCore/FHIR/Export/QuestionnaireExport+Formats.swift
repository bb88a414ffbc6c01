import Foundation
import JSON

// Answer formats as item types, bounds, units, sliders and initial answers.

extension QuestionnaireExport.Builder {
    func formatMapping(_ question: JSONValue, path: JSONPath) -> FormatMapping {
        let format = question[fx: "answerFormat"] ?? .object([:])
        let formatPath = path / "answerFormat"
        var mapping = FormatMapping(kind: FHIRExportKind(question: question, path: path, text: text))
        var used: Set<String> = ["type", "style"]
        var initial = question[fx: "initial"]
        var initialPath = path / "initial"
        let formatKind = FHIRExportKind.formatKind(format)

        func initialDefault(_ key: String) {
            used.insert(key)
            if initial == nil, let value = format[fx: key] {
                initial = value
                initialPath = formatPath / key
            }
        }
        switch formatKind {
        case .textChoice?, .valuePicker?, .imageChoice?, .textScale?:
            used.formUnion(["choices", "defaultIndex"])
            choiceMapping(format, path: formatPath, initial: initial, into: &mapping)
            initial = nil
        case .scale?:
            initialDefault("defaultValue")
            used.formUnion(["minimum", "maximum", "step"])
            guard case .scale(let scale)? = Self.typed(format) else { break }
            addBound(FHIRExtensionURL.minValue, .number(Double(scale.minimum)), kind: mapping.kind, into: &mapping)
            addBound(FHIRExtensionURL.maxValue, .number(Double(scale.maximum)), kind: mapping.kind, into: &mapping)
            mapping.extensions.append(FHIRJSON.itemControl("slider"))
            addSliderStep(scale.effectiveStep, into: &mapping)
        case .continuousScale?:
            initialDefault("defaultValue")
            used.formUnion(["minimum", "maximum", "maximumFractionDigits"])
            guard case .continuousScale(let scale)? = Self.typed(format) else { break }
            addBound(FHIRExtensionURL.minValue, .number(scale.minimum), kind: mapping.kind, into: &mapping)
            addBound(FHIRExtensionURL.maxValue, .number(scale.maximum), kind: mapping.kind, into: &mapping)
            mapping.extensions.append(FHIRJSON.itemControl("slider"))
            // The digits count in the shown number: a percent records two more.
            let digits = scale.fractionDigits + (scale.isPercent ? 2 : 0)
            if digits == 0 { addSliderStep(1, into: &mapping) }
            addDecimalPlaces(.number(Double(digits)), into: &mapping)
        case .numeric?:
            if case .numeric(let numeric)? = Self.typed(format) {
                addBound(FHIRExtensionURL.minValue, numeric.minimum.map(JSONValue.number), kind: mapping.kind, into: &mapping)
                addBound(FHIRExtensionURL.maxValue, numeric.maximum.map(JSONValue.number), kind: mapping.kind, into: &mapping)
                if numeric.style == .integer {
                    if mapping.kind.itemType != "integer" { addDecimalPlaces(.number(0), into: &mapping) }
                } else {
                    addDecimalPlaces(numeric.maximumFractionDigits.map { .number(Double($0)) }, into: &mapping)
                }
            }
            initialDefault("defaultNumericAnswer")
            used.formUnion(["minimum", "maximum", "maximumFractionDigits", "unit", "displayUnit"])
            addUnit(mapping.kind, format: format, fhir: question[fx: "fhir"], path: formatPath, into: &mapping)
        case .height?:
            addUnit(mapping.kind, format: format, fhir: question[fx: "fhir"], path: formatPath, into: &mapping)
            initialDefault("defaultValue")
            used.formUnion(["minimumValue", "maximumValue", "measurementSystem", "numericPrecision"])
            if case .height(let height)? = Self.typed(format), height.measurementSystem != .metric {
                noteOwnUnits(formatPath, asked: "cm")
            }
        case .weight?:
            addUnit(mapping.kind, format: format, fhir: question[fx: "fhir"], path: formatPath, into: &mapping)
            if case .weight(let weight)? = Self.typed(format) {
                addBound(FHIRExtensionURL.minValue, weight.minimumValue.map(JSONValue.number), kind: mapping.kind, into: &mapping)
                addBound(FHIRExtensionURL.maxValue, weight.maximumValue.map(JSONValue.number), kind: mapping.kind, into: &mapping)
                let metric = weight.measurementSystem == .metric
                if !metric { noteOwnUnits(formatPath, asked: "kg") }
                addDecimalPlaces(.number(Double(metric ? weight.allowedDigits : 2)), into: &mapping)
            }
            initialDefault("defaultValue")
            used.formUnion(["minimumValue", "maximumValue", "measurementSystem", "numericPrecision"])
        case .age?:
            used.formUnion(["minimumAge", "maximumAge"])
            initialDefault("defaultValue")
            if case .age(let age)? = Self.typed(format), age.useYearForResult != true {
                addBound(FHIRExtensionURL.minValue, .number(Double(age.effectiveMinimum)), kind: mapping.kind, into: &mapping)
                addBound(FHIRExtensionURL.maxValue, .number(Double(age.effectiveMaximum)), kind: mapping.kind, into: &mapping)
            }
        case .ses?:
            addBound(FHIRExtensionURL.minValue, .number(1), kind: mapping.kind, into: &mapping)
            addBound(FHIRExtensionURL.maxValue, .number(10), kind: mapping.kind, into: &mapping)
            note(formatPath, "FHIR has no ladder; the rung is asked as an integer from 1 (bottom) to 10 (top).")
        case .date?:
            if case .date(let date)? = Self.typed(format) { dateBounds(date, kind: mapping.kind, path: formatPath, into: &mapping) }
            used.formUnion(["minimumDate", "maximumDate", "daysBeforeCurrentDate", "daysAfterCurrentDate"])
            initialDefault("defaultDate")
        case .timeOfDay?:
            initialDefault("defaultComponents")
        case .timeInterval?:
            initialDefault("defaultInterval")
            note(formatPath, "FHIR has no time interval; the item asks for a quantity in seconds.")
        case .text?:
            if case .text(let text)? = Self.typed(format) { textRules(text, into: &mapping) }
            used.formUnion(["maximumLength", "minimumLength", "validationRegularExpression", "invalidMessage", "multipleLines"])
            initialDefault("defaultTextAnswer")
        case .email?:
            mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.regex, "String", .string(Self.emailPattern)))
            note(formatPath, "FHIR has no email type; the item is a string with the email pattern as its regex.")
        case .location?:
            note(formatPath, "FHIR has no location type; the item asks for the address as a string, and coordinates are lost.")
        case .multipleValuePicker?:
            used.formUnion(["pickers", "separator"])
            note(formatPath, "FHIR has no multiple-value picker; the item is a string holding the chosen values joined by the separator, and the pickers' choices are left out.")
            if let parts = initial?.fxArray, case .multipleValuePicker(let picker)? = Self.typed(format) {
                initial = .string(parts.compactMap(\.fxCodeText).joined(separator: picker.effectiveSeparator))
            }
        case .boolean?, nil:
            break
        }
        if let initial {
            let values = mapping.kind.values(for: initial)
            if values.isEmpty {
                note(initialPath, "The initial answer does not fit the item's type; it is left out.")
            }
            mapping.initial = values.map { .object(JSONObject([("value" + $0.type, $0.value)])) }
        }
        if format[fx: "showDontKnowButton"]?.fxBool == true { used.insert("customDontKnowButtonText") }
        noteUnused(format, at: formatPath, used: used)
        return mapping
    }

    /// The format as the survey loader reads it, so that an option is read, and defaulted, where
    /// its format's file says; nil when the JSON is no format the loader accepts.
    static func typed(_ format: JSONValue) -> AnswerFormat? {
        SurveyDecoding(log: DiagnosticLog()).answerFormat(format, at: .root)
    }

    /// ResearchKit's email expression, as the presenter checks it.
    static let emailPattern = "^[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,6}$"

    /// A minValue or maxValue bound typed by the item (minQuantity or maxQuantity for a quantity).
    private func addBound(_ url: String, _ bound: JSONValue?, kind: FHIRExportKind, into mapping: inout FormatMapping) {
        guard let bound else { return }
        var boundURL = url
        if case .quantity = kind.value {
            boundURL = url == FHIRExtensionURL.minValue ? FHIRExtensionURL.minQuantity : FHIRExtensionURL.maxQuantity
        }
        guard let value = kind.values(for: bound).first else { return }
        mapping.extensions.append(FHIRJSON.extensionValue(boundURL, value.type, value.value))
    }

    private func noteOwnUnits(_ path: JSONPath, asked unit: String) {
        note(path / "measurementSystem", "The participant may answer in their own units; FHIR has no such choice, so the item asks in \(unit).")
    }

    private func addSliderStep(_ step: Int, into mapping: inout FormatMapping) {
        mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.sliderStepValue, "Integer", FHIRJSON.integer(step)))
    }

    private func addDecimalPlaces(_ digits: JSONValue?, into mapping: inout FormatMapping) {
        guard let digits = digits?.fxInteger else { return }
        mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.maxDecimalPlaces, "Integer", FHIRJSON.integer(digits)))
    }

    /// The unit's extension: questionnaire-unitOption on a quantity item, questionnaire-unit on an
    /// integer or decimal one (FHIR allows each only there); none when the item keeps its own. A
    /// unit that is not a UCUM code gets a note.
    private func addUnit(_ kind: FHIRExportKind, format: JSONValue, fhir: JSONValue?, path: JSONPath, into mapping: inout FormatMapping) {
        guard FHIRExportUnit.keptCoding(fhir) == nil else { return }
        let unit: FHIRExportUnit?
        var url = FHIRExtensionURL.unit
        if case .quantity(let quantityUnit) = kind.value {
            unit = quantityUnit
            url = FHIRExtensionURL.unitOption
        } else {
            unit = FHIRExportUnit(format: Self.typed(format), fhir: fhir)
        }
        guard let unit, unit.code != nil || unit.display != nil else { return }
        mapping.extensions.append(FHIRJSON.extensionValue(url, "Coding", unit.coding))
        if unit.isTextOnly, let written = format[fx: "unit"]?.fxText {
            note(path / "unit", "\"\(written)\" is not a UCUM unit; the answers carry it as text only, with no unit code.")
        }
    }

    /// Fixed bounds as minValue and maxValue; bounds in days around today as FHIRPath (cqf-expression).
    private func dateBounds(_ format: DateFormat, kind: FHIRExportKind, path: JSONPath, into mapping: inout FormatMapping) {
        let withTime = kind.itemType == "dateTime"
        // The keys name the options in the notes' paths and sentences.
        let ends: [(url: String, fixed: String?, days: Int?, fixedKey: String, daysKey: String, sign: String)] = [
            (FHIRExtensionURL.minValue, format.minimumDate, format.daysBeforeCurrentDate, "minimumDate", "daysBeforeCurrentDate", "-"),
            (FHIRExtensionURL.maxValue, format.maximumDate, format.daysAfterCurrentDate, "maximumDate", "daysAfterCurrentDate", "+"),
        ]
        for (url, fixed, days, fixedKey, daysKey, sign) in ends {
            if let fixed {
                addBound(url, .string(fixed), kind: kind, into: &mapping)
                if days != nil {
                    note(path / daysKey, "\"\(daysKey)\" is left out: the item keeps the fixed bound \"\(fixedKey)\".")
                }
            } else if let days {
                let now = withTime ? "now()" : "today()"
                let source = days == 0 ? now : "\(now) \(sign) \(days) days"
                let expression = FHIRJSON.extensionValue(FHIRExtensionURL.cqfExpression, "Expression", FHIRJSON.expression(source))
                mapping.extensions.append(.object(JSONObject([
                    ("url", .string(url)), (withTime ? "_valueDateTime" : "_valueDate", .object(["extension": .array([expression])])),
                ])))
            }
        }
    }

    /// The pattern as FHIR's regex, which must match the whole answer, while the survey's may
    /// match anywhere in it. The import writes a FHIR pattern P as `^(?:P)$`, so that wrapping
    /// comes off again; a pattern anchored at both ends is kept; any other is wrapped so that it
    /// may match anywhere (`[\s\S]*(?:P)[\s\S]*`).
    static func fhirPattern(_ pattern: String) -> String {
        if pattern.hasPrefix("^(?:"), pattern.hasSuffix(")$"), pattern.count > 6 { return String(pattern.dropFirst(4).dropLast(2)) }
        if pattern.hasPrefix("^"), pattern.hasSuffix("$"), !pattern.hasSuffix("\\$") { return pattern }
        return "[\\s\\S]*(?:" + pattern + ")[\\s\\S]*"
    }

    /// Length limits, regular expression and its message.
    private func textRules(_ format: TextFormat, into mapping: inout FormatMapping) {
        mapping.maxLength = format.lengthLimit
        if let minimum = format.minimumLength {
            mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.minLength, "Integer", FHIRJSON.integer(minimum)))
        }
        guard let pattern = format.validationRegularExpression, !pattern.isEmpty else { return }
        mapping.extensions.append(FHIRJSON.extensionValue(FHIRExtensionURL.regex, "String", .string(Self.fhirPattern(pattern))))
        mapping.regexMessage = text.plain(format.invalidMessage?.json)
    }
}
