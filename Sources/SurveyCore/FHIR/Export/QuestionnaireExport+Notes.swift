import Foundation
import JSON

// The notes for keys a Questionnaire has no place for. A key left at its default says
// nothing and gets no note; any other key the export did not use gets one.

extension QuestionnaireExport.Builder {
    /// Notes every key of `object` that is not in `used` and not at its default.
    func noteUnused(_ object: JSONValue, at path: JSONPath, used: Set<String>, defaults: [String: JSONValue] = [:]) {
        guard let entries = object.fxObject?.entries else { return }
        for (key, value) in entries where !used.contains(key) && value != .null {
            if let fallback = defaults[key] ?? Self.commonDefaults[key], fallback == value { continue }
            note(path / key, Self.sentences[key] ?? "\"\(key)\" has no FHIR equivalent; it is left out.")
        }
    }

    /// Defaults that hold wherever the key appears.
    static let commonDefaults: [String: JSONValue] = [
        "showDontKnowButton": .bool(false),
        "showsProgress": .bool(true),
        "vertical": .bool(false),
        "numberStyle": .string("default"),
        "exclusive": .bool(false),
        "showYear": .bool(false),
        "useYearForResult": .bool(false),
        "treatMinAgeAsRange": .bool(false),
        "treatMaxAgeAsRange": .bool(false),
        "showAnswersOnCompletion": .bool(false),
    ]

    /// Sentences for keys whose loss needs more than "no FHIR equivalent".
    static let sentences: [String: String] = [
        "learnMore": "\"learnMore\" has no FHIR equivalent; its disclosure text is left out.",
        "footnote": "\"footnote\" has no FHIR equivalent; it is left out.",
        "image": "\"image\" has no FHIR equivalent; the step's image is left out.",
        "showsProgress": "\"showsProgress\" has no FHIR equivalent; a Questionnaire does not count pages.",
        "showDontKnowButton": "The don't-know button has no FHIR equivalent; a don't-know answer is exported with data-absent-reason \"asked-unknown\".",
        "customDontKnowButtonText": "\"customDontKnowButtonText\" has no FHIR equivalent; it is left out.",
        "kioskIdle": "\"kioskIdle\" has no FHIR equivalent; what a kiosk does with an abandoned run is left out.",
        "timeZone": "\"timeZone\" has no FHIR equivalent; date-and-time answers carry their offset instead.",
        "shouldReportProgress": "\"shouldReportProgress\" has no FHIR equivalent; it is left out.",
        "showAnswersOnCompletion": "\"showAnswersOnCompletion\" has no FHIR equivalent; it is left out.",
        "numberStyle": "The percent style has no FHIR equivalent; the item asks for the fraction (0 to 1) as a decimal.",
        "minuteInterval": "\"minuteInterval\" has no FHIR equivalent; any minute may be entered.",
        "vertical": "\"vertical\" has no FHIR equivalent for a slider; it is left out.",
        "useYearForResult": "The answer is a year of birth, not an age; FHIR has no such format, so the item asks for the year as an integer without bounds.",
        "minimumValueDescription": "\"minimumValueDescription\" is left out: FHIR puts a slider's end labels in items under the question, which the import cannot read back.",
        "maximumValueDescription": "\"maximumValueDescription\" is left out: FHIR puts a slider's end labels in items under the question, which the import cannot read back.",
        "topRungText": "\"topRungText\" has no FHIR equivalent; it is left out.",
        "bottomRungText": "\"bottomRungText\" has no FHIR equivalent; it is left out.",
        "yes": "The label of the yes answer has no FHIR equivalent; it is left out.",
        "no": "The label of the no answer has no FHIR equivalent; it is left out.",
        "optional": "A form step's \"optional\" has no FHIR equivalent (a group has no Skip button); its questions keep their own \"required\".",
    ]

    /// Notes the task's keys that have no place in a Questionnaire.
    func noteTaskKeys(languages: [String]) {
        let json = survey.json
        if languages.count > 1 {
            note(.root / "languages", "The first language (\(languages[0])) is the Questionnaire's; the others are translation extensions "
                + "on titles, item texts and option displays, while hints, messages and instruction texts keep only the first.")
        }
        for (key, _) in json.fxObject?["navigationRules"]?.fxObject?.entries ?? [] {
            note(.root / "navigationRules" / key, "FHIR Questionnaires have no jumps; the rule is left out.")
        }
        noteUnused(json, at: .root, used: ["identifier", "title", "steps", "navigationRules", "skipRules", "languages", "variables", "fhir"])
    }
}
