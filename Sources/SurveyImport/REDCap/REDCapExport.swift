import Foundation
import JSON
import SurveyCore

/// A survey as a REDCap data dictionary of one instrument (docs/redcap-and-xlsform.md): the
/// rows REDCap's designer accepts, in the header style the survey was imported with. What the
/// importer kept of the dictionary (`redcap` keys) is written back where the survey still says
/// the same, so that a dictionary imported and exported comes back as it was.
public struct REDCapExport {
    struct ExportField {
        let name: String
        let isMultiple: Bool
    }

    let survey: JSONValue
    let instrument: String
    let language: String?
    /// Each question's field, by the survey's selector.
    var fields: [String: ExportField] = [:]
    var rows: [[String]] = []
    var notes: [Diagnostic] = []

    /// The dictionary's rows (the header first) and what could not be written.
    public static func dictionary(_ task: SurveyTask) -> (rows: [[String]], notes: [Diagnostic]) {
        var export = REDCapExport(survey: task.json, task: task)
        export.write()
        return (export.rows, export.notes)
    }

    private init(survey: JSONValue, task: SurveyTask) {
        self.survey = survey
        instrument = Self.fieldName(task.identifier)
        language = task.languages?.first
        if (task.languages?.count ?? 0) > 1 {
            notes.append(Diagnostic(.warning, .root / "languages", "REDCap's dictionary holds one language: the texts are written in \(language ?? "the first").") )
        }
        var used: Set<String> = []
        for (index, step) in (survey["steps"]?.arrayValue ?? []).enumerated() {
            let identifier = step["identifier"]?.stringValue ?? ""
            if step["type"]?.stringValue == "question" {
                fields[identifier] = ExportField(name: unique(Self.fieldName(identifier), &used, at: .root / "steps" / index),
                                                 isMultiple: Self.isMultiple(step))
            }
            for (position, item) in (step["items"]?.arrayValue ?? []).enumerated() where item["answerFormat"] != nil {
                let name = item["identifier"]?.stringValue ?? ""
                fields["\(identifier).\(name)"] = ExportField(name: unique(Self.fieldName(name), &used, at: .root / "steps" / index / "items" / position),
                                                              isMultiple: Self.isMultiple(item))
            }
        }
    }

    private mutating func unique(_ name: String, _ used: inout Set<String>, at path: JSONPath) -> String {
        var candidate = name
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(name)_\(counter)"
            counter += 1
        }
        if candidate != name { notes.append(Diagnostic(.warning, path, "The field is named \(candidate): \(name) names another already.")) }
        used.insert(candidate)
        return candidate
    }

    /// A REDCap variable name: lower-case letters, digits and `_`, starting with a letter.
    static func fieldName(_ identifier: String) -> String {
        var name = String(identifier.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII ? $0 : "_" })
        if !(name.first?.isLetter ?? false) { name = "v_" + name }
        return name
    }

    static func isMultiple(_ question: JSONValue) -> Bool {
        question["answerFormat"]?["style"]?.stringValue == "multipleChoice"
    }

    /// A text in the survey's first language, with piped answers written as REDCap pipes them.
    func plain(_ text: JSONValue?) -> String {
        var words: String
        switch text {
        case .string(let value)?: words = value
        case .object(let object)?: words = (language.flatMap { object[$0]?.stringValue } ?? object.entries.first?.value.stringValue) ?? ""
        default: return ""
        }
        while let open = words.range(of: "${"), let close = words[open.upperBound...].firstIndex(of: "}") {
            let inside = words[open.upperBound..<close]
            let selector = String(inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            words.replaceSubrange(open.lowerBound...close, with: "[\(fields[selector]?.name ?? selector)]")
        }
        return words
    }
}
