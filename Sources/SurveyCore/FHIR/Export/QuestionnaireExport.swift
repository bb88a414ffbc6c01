import Foundation
import JSON

/// A survey as an R4 Questionnaire, the inverse of the import (docs/fhir.md): a form step is a
/// top-level group, an instruction, completion or video step a display item, a question step
/// a question item, a section header a nested group, a form note a display item in its group.
///
/// Pure JSON to JSON: the survey file's JSON as the server writes it in, FHIR JSON out, with a
/// warning for each thing the Questionnaire cannot hold (a JSONPath into the survey and an
/// English sentence), so that a researcher knows what an EHR will not see.
public enum QuestionnaireExport {
    /// The survey as an R4 Questionnaire, with a warning (JSONPath into the survey + English sentence) for each thing that cannot map.
    public static func questionnaire(fromSurvey survey: JSONValue, surveyVersion: String?) -> (questionnaire: JSONValue, notes: [Diagnostic]) {
        let builder = Builder(survey: survey)
        let items = builder.items()
        let root = builder.root(items: items, surveyVersion: surveyVersion)
        return (root, builder.notes)
    }

    /// The Questionnaire's `url`: the survey's `fhir.url`, else one made from its identifier.
    static func url(survey: JSONValue) -> String {
        survey[fx: "fhir"]?[fx: "url"]?.fxText
            ?? FHIRExportURL.questionnairePrefix + (survey[fx: "identifier"]?.fxString ?? "")
    }

    /// The Questionnaire's `version`: the survey's `fhir.version`, else the survey version given.
    static func version(survey: JSONValue, surveyVersion: String?) -> String? {
        survey[fx: "fhir"]?[fx: "version"]?.fxCodeText ?? FHIRJSON.string(surveyVersion)?.fxString
    }

    /// A computer-friendly `name`: the identifier's words run together, each with a capital
    /// first letter (`every-format` → `EveryFormat`), starting with a letter as FHIR requires.
    static func name(identifier: String) -> String {
        let words = identifier.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.first.map({ !$0.isLetter }) ?? true { name = "Survey" + name }
        return String(name.prefix(255))
    }

    /// A FHIR `id` (letters, digits, `-` and `.`, at most 64): the identifier with `_` as `-`.
    static func resourceId(identifier: String) -> String {
        String(identifier.map { $0 == "_" ? "-" : $0 }.prefix(64))
    }

    /// A question step's item text: its `question`, else its `title`, else its `text`.
    static func questionStepText(_ step: JSONValue, _ text: FHIRExportText) -> String? {
        text.plain(step[fx: "question"]) ?? text.plain(step[fx: "title"]) ?? text.plain(step[fx: "text"])
    }

    /// The state of one export: the survey and the notes so far.
    final class Builder {
        let survey: FHIRExportSurvey
        var notes: [Diagnostic] = []
        var text: FHIRExportText { survey.text }

        init(survey: JSONValue) {
            self.survey = FHIRExportSurvey(survey)
        }

        func note(_ path: JSONPath, _ message: String) {
            notes.append(Diagnostic(.warning, path, message))
        }

        func root(items: [JSONValue], surveyVersion: String?) -> JSONValue {
            let json = survey.json
            let fhir = survey.fhir
            let languages = json[fx: "languages"]?.fxArray?.compactMap(\.fxText) ?? []
            var extensions = fhir?[fx: "extension"]?.fxArray ?? []
            extensions += variables(json[fx: "variables"]).filter { !extensions.contains($0) }
            noteTaskKeys(languages: languages)
            return FHIRJSON.object([
                "resourceType": .string("Questionnaire"),
                "id": FHIRJSON.string(resourceId(identifier: survey.identifier)),
                "language": FHIRJSON.string(languages.first),
                "extension": .array(extensions),
                "url": .string(url(survey: json)),
                "version": FHIRJSON.string(version(survey: json, surveyVersion: surveyVersion)),
                "name": .string(fhir?[fx: "name"]?.fxText ?? name(identifier: survey.identifier)),
                "title": FHIRJSON.string(text.plain(json[fx: "title"])),
                "_title": text.translations(json[fx: "title"]),
                "status": .string(fhir?[fx: "status"]?.fxText ?? "active"),
                "code": fhir?[fx: "code"],
                "item": .array(items),
            ])
        }

        /// `variable` extensions for a list of `{name, expression}`.
        func variables(_ list: JSONValue?) -> [JSONValue] {
            (list?.fxArray ?? []).compactMap { entry in
                guard let name = entry[fx: "name"]?.fxText, let source = entry[fx: "expression"]?.fxText else { return nil }
                return FHIRJSON.extensionValue(FHIRExtensionURL.variable, "Expression", FHIRJSON.expression(source, name: name))
            }
        }
    }
}
