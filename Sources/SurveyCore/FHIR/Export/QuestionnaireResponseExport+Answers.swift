import Foundation
import JSON

// The response's items: each step's last result in the Questionnaire's order, answers typed by the item.

extension QuestionnaireResponseExport {
    /// The recorded answer of a question result in one of the shapes `FHIRExportKind` types.
    enum RecordedAnswer {
        case value(JSONValue)
        case dontKnow
    }

    static func items(result: JSONValue, survey: FHIRExportSurvey) -> [JSONValue] {
        // In the Questionnaire's order, as FHIR asks, whatever order the run took (a block's own).
        let ordered = lastResults(result).enumerated().sorted { left, right in
            let leftPlace = survey.step(left.element[fx: "identifier"]?.fxString ?? "")?.index ?? Int.max
            let rightPlace = survey.step(right.element[fx: "identifier"]?.fxString ?? "")?.index ?? Int.max
            return (leftPlace, left.offset) < (rightPlace, right.offset)
        }.map(\.element)
        return ordered.flatMap { stepResult -> [JSONValue] in
            // A repeating form answers once per instance: the group repeated, its linkId the same.
            // One being answered when the run was saved is the last, with what it holds so far.
            if case .array(let instances)? = stepResult[fx: "instances"],
               let step = survey.step(stepResult[fx: "identifier"]?.fxString ?? "")?.json {
                let answers = instances.map { $0[fx: "results"]?.fxArray ?? [] } + [stepResult[fx: "results"]?.fxArray ?? []]
                return answers.compactMap { formItem(step, results: $0, survey: survey) }
            }
            return stepItem(stepResult, survey: survey).map { [$0] } ?? []
        }
    }

    /// A step result's item: a question step's question, a form's group; nil for other steps.
    private static func stepItem(_ stepResult: JSONValue, survey: FHIRExportSurvey) -> JSONValue? {
        let identifier = stepResult[fx: "identifier"]?.fxString ?? ""
        let questionResults = stepResult[fx: "results"]?.fxArray ?? []
        guard let step = survey.step(identifier)?.json else { return orphanItem(identifier, questionResults, survey: survey) }
        switch step[fx: "type"]?.fxString {
        case "question":
            guard let questionResult = questionResults.first(where: { $0[fx: "identifier"]?.fxString == identifier }) ?? questionResults.first
            else { return nil }
            return questionItem(linkId: FHIRExportSurvey.stepLinkId(step), text: QuestionnaireExport.questionStepText(step, survey.text),
                                question: step, result: questionResult, survey: survey)
        case "form":
            return formItem(step, results: questionResults, survey: survey)
        default:
            return nil
        }
    }

    /// Each step's last result, in path order: a step the path passed twice answers once, as it was last.
    private static func lastResults(_ result: JSONValue) -> [JSONValue] {
        let all = result[fx: "results"]?.fxArray ?? []
        var seen: Set<String> = []
        var kept: [JSONValue] = []
        for stepResult in all.reversed() {
            let identifier = stepResult[fx: "identifier"]?.fxString ?? ""
            if seen.insert(identifier).inserted { kept.append(stepResult) }
        }
        return kept.reversed()
    }

    private static func formItem(_ step: JSONValue, results: [JSONValue], survey: FHIRExportSurvey) -> JSONValue? {
        let stepIdentifier = step[fx: "identifier"]?.fxString ?? ""
        let items = step[fx: "items"]?.fxArray ?? []
        var byIdentifier: [String: JSONValue] = [:]
        for questionResult in results {
            if let identifier = questionResult[fx: "identifier"]?.fxString { byIdentifier[identifier] = questionResult }
        }
        func build(_ group: FHIRFormGroup, text: String?) -> JSONValue? {
            let children = group.entries.compactMap { entry -> JSONValue? in
                switch entry {
                case .group(let nested):
                    return build(nested, text: nested.section.flatMap(sectionText))
                case .question(let index):
                    let item = items[index]
                    guard let identifier = item[fx: "identifier"]?.fxString, let questionResult = byIdentifier[identifier] else { return nil }
                    return questionItem(linkId: FHIRExportSurvey.questionLinkId(item, stepIdentifier: stepIdentifier),
                                        text: survey.text.plain(item[fx: "text"]), question: item, result: questionResult, survey: survey)
                case .note:
                    return nil
                }
            }
            guard !children.isEmpty else { return nil }
            return FHIRJSON.object(["linkId": .string(group.linkId), "text": FHIRJSON.string(text), "item": .array(children)])
        }
        func sectionText(_ index: Int) -> String? {
            FHIRExportText.withoutPrefix(survey.text.plain(items[index][fx: "sectionTitle"]), items[index][fx: "fhir"]?[fx: "prefix"]?.fxText)
        }
        return build(FHIRFormGroup.layout(of: step),
                     text: FHIRExportText.withoutPrefix(survey.text.plain(step[fx: "title"]), step[fx: "fhir"]?[fx: "prefix"]?.fxText))
    }

    /// A question item with its answers; nil when the question has none.
    static func questionItem(linkId: String, text: String?, question: JSONValue?, result: JSONValue, survey: FHIRExportSurvey) -> JSONValue? {
        guard let recorded = recordedAnswer(result, question: question) else { return nil }
        let text = FHIRExportText.withoutPrefix(text, question?[fx: "fhir"]?[fx: "prefix"]?.fxText)
        switch recorded {
        case .dontKnow:
            return FHIRJSON.object([
                "linkId": .string(linkId),
                "text": FHIRJSON.string(text),
                "extension": .array([FHIRJSON.extensionValue(FHIRExtensionURL.dataAbsentReason, "Code", .string("asked-unknown"))]),
            ])
        case .value(let answer):
            var typed: [(type: String, value: JSONValue)] = []
            if let question { typed = FHIRExportKind(question: question, path: .root, text: survey.text).values(for: answer) }
            if typed.isEmpty { typed = fallbackKind(result).values(for: answer) }
            guard !typed.isEmpty else { return nil }
            return FHIRJSON.object([
                "linkId": .string(linkId),
                "text": FHIRJSON.string(text),
                "answer": .array(typed.map { .object(JSONObject([("value" + $0.type, $0.value)])) }),
            ])
        }
    }

    /// The answer a question result records, in the shape an answer format's `initial` takes;
    /// nil when it records none.
    static func recordedAnswer(_ result: JSONValue, question: JSONValue?) -> RecordedAnswer? {
        if result[fx: "noAnswerType"]?.fxString == "dontKnow" { return .dontKnow }
        for key in ["booleanAnswer", "choiceAnswers", "scaleAnswer", "numericAnswer", "dateComponentsAnswer",
                    "dateAnswer", "intervalAnswer", "textAnswer", "rungPicked"] {
            if let value = result[fx: key] {
                if let list = value.fxArray, list.isEmpty { return nil }
                return .value(value)
            }
        }
        if let components = result[fx: "componentsAnswer"]?.fxArray, !components.isEmpty {
            // The separator the result recorded, else its question's, else ResearchKit's.
            var picker = MultipleValuePickerFormat(pickers: [])
            if case .multipleValuePicker(let format)? = question?[fx: "answerFormat"].flatMap(QuestionnaireExport.Builder.typed) { picker = format }
            let separator = result[fx: "separator"]?.fxString ?? picker.effectiveSeparator
            return .value(.string(components.compactMap(\.fxCodeText).joined(separator: separator)))
        }
        if let userInput = result[fx: "locationAnswer"]?[fx: "userInput"]?.fxText { return .value(.string(userInput)) }
        return nil
    }

    /// The kind of a question the survey no longer has, from its result alone.
    private static func fallbackKind(_ result: JSONValue) -> FHIRExportKind {
        let format: JSONValue
        switch result[fx: "type"]?.fxString {
        case "boolean": format = .object(["type": .string("boolean")])
        case "choice": format = .object(["type": .string("textChoice"), "choices": .array([])])
        case "scale", "ses": format = .object(["type": .string("scale")])
        case "numeric": format = .object(["type": .string("numeric"), "style": .string("integer"), "unit": result[fx: "unit"]])
        case "timeOfDay": format = .object(["type": .string("timeOfDay")])
        case "timeInterval": format = .object(["type": .string("timeInterval")])
        case "date":
            let withTime = result[fx: "dateAnswer"]?.fxString?.contains("T") == true
            format = .object(["type": .string("date"), "style": .string(withTime ? "dateAndTime" : "date")])
        default: format = .object(["type": .string("text")])
        }
        return FHIRExportKind(question: .object(["answerFormat": format]), path: .root, text: FHIRExportText(survey: .null))
    }

    /// A step result whose step the survey no longer has: one question at the top level, or a
    /// group of `<stepId>.<itemId>` questions.
    private static func orphanItem(_ identifier: String, _ results: [JSONValue], survey: FHIRExportSurvey) -> JSONValue? {
        if results.count == 1, results[0][fx: "identifier"]?.fxString == identifier {
            return questionItem(linkId: identifier, text: nil, question: nil, result: results[0], survey: survey)
        }
        let children = results.compactMap { result in
            questionItem(linkId: identifier + "." + (result[fx: "identifier"]?.fxString ?? ""), text: nil, question: nil, result: result, survey: survey)
        }
        return children.isEmpty ? nil : FHIRJSON.object(["linkId": .string(identifier), "item": .array(children)])
    }
}
