import Foundation
import JSON
import SurveyCore

/// Builds an XLSForm's survey file, a row of the survey sheet at a time.
struct XLSFormBuilder {
    typealias Row = XLSFormSheets.Row
    /// A group open at this row: a plain one, a `field-list` page or a repeat (a form step).
    struct Group {
        let name: String
        let label: JSONValue?
        let relevant: String?
        let row: Row
        /// The form step this group fills, for a field-list group or a repeat.
        var stepIndex: Int?
    }

    let form: XLSFormSheets
    let fallbackIdentifier: String
    let languages: XLSFormLanguages
    var diagnostics: [Diagnostic] = []
    var fields: [String: ImportedField] = [:]
    var steps: [JSONValue] = []
    var skipRules = JSONObject()
    var origins = ImportOrigins()
    var groups: [Group] = []
    /// A plain group's label, waiting for the group's first step.
    var pendingTitle: JSONValue?

    static let unsupported = ["geopoint", "geotrace", "geoshape", "image", "audio", "video", "file", "barcode", "background-audio",
                              "background-geopoint", "select_one_from_file", "select_multiple_from_file", "rank", "xml-external",
                              "csv-external", "osm", "signature", "select_one_external"]
    static let metadata = ["start", "end", "today", "deviceid", "subscriberid", "simserial", "phonenumber", "username", "email",
                           "audit", "start-geopoint", "instanceid"]

    init(form: XLSFormSheets, fallbackIdentifier: String) {
        self.form = form
        self.fallbackIdentifier = fallbackIdentifier
        languages = XLSFormLanguages(columns: form.surveyColumns + form.choiceColumns, defaultLanguage: form.settings["default_language"])
        fields = knownFields()
    }

    var survey: ImportedSurvey {
        var object = JSONObject()
        let identifier = form.settings["form_id"].flatMap(Self.identifier) ?? Self.identifier(fallbackIdentifier) ?? "xlsform"
        object["identifier"] = .string(identifier)
        object["title"] = .string(form.settings["form_title"] ?? fallbackIdentifier)
        if languages.tags.count > 1 { object["languages"] = .array(languages.tags.map(JSONValue.string)) }
        object["steps"] = .array(steps)
        if !skipRules.isEmpty { object["skipRules"] = .object(skipRules) }
        return ImportedSurvey(survey: .object(object), origins: origins)
    }

    /// A form id as a survey identifier: letters, digits, `.`, `_` and `-`.
    static func identifier(_ text: String) -> String? {
        let kept = String(text.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "-" })
        return kept.first.map { $0.isLetter || $0.isNumber } == true ? kept : nil
    }

    mutating func error(_ row: Row, _ column: String?, _ message: String) {
        diagnostics.append(Diagnostic(.error, .root, place(row, column) + ": " + message))
    }

    mutating func warn(_ row: Row, _ column: String?, _ message: String) {
        diagnostics.append(Diagnostic(.warning, .root, place(row, column) + ": " + message))
    }

    func place(_ row: Row, _ column: String?) -> String { row.place + (column.map { ", column \($0)" } ?? "") }

    /// The form step the rows now go into: the innermost open field-list group or repeat.
    var container: Group? { groups.last { $0.stepIndex != nil } }

    /// Each question's selector and kind, for the expressions, which may name any question.
    private func knownFields() -> [String: ImportedField] {
        var known: [String: ImportedField] = [:]
        var open: [(name: String, isContainer: Bool)] = []
        for row in form.survey {
            let type = XLSFormType(row["type"])
            switch type.base {
            case "begin_group", "begin_repeat":
                let isContainer = type.base == "begin_repeat" || row["appearance"].contains("field-list")
                open.append((row["name"], isContainer && !open.contains { $0.isContainer }))
            case "end_group", "end_repeat":
                _ = open.popLast()
            default:
                let name = row["name"]
                guard !name.isEmpty, let kind = type.kind(choices: choiceList(type.list)) else { continue }
                if let step = open.first(where: \.isContainer)?.name {
                    known[name] = ImportedField(selector: "\(step).\(name)", linkIds: [step, "\(step).\(name)"], kind: kind)
                } else {
                    known[name] = ImportedField(selector: name, linkIds: [name], kind: kind)
                }
            }
        }
        return known
    }

    /// The rows of a choice list, in order.
    func choiceList(_ name: String?) -> [Row] {
        guard let name else { return [] }
        return form.choices.filter { $0["list_name"] == name }
    }
}

/// A survey row's `type`: `select_one colours or_other` is the base, the list and the flag.
struct XLSFormType {
    let base: String
    let list: String?
    let orOther: Bool

    /// pyxform's other names for types: `string`, `int`, `select one from colours`, `select all that apply from colours`.
    private static let aliases: [(String, String)] = [
        ("select all that apply from ", "select_multiple "), ("select all that apply ", "select_multiple "),
        ("select one from ", "select_one "), ("select one ", "select_one "), ("select_one_from ", "select_one "),
        ("select_multiple_from ", "select_multiple "), ("add select one prompt using ", "select_one "),
        ("add select multiple prompt using ", "select_multiple "),
    ]
    private static let baseAliases = ["string": "text", "int": "integer", "float": "decimal", "trigger": "acknowledge",
                                      "phone number": "phone_number", "q_note": "note", "add note prompt": "note"]

    init(_ given: String) {
        var text = given.trimmingSpaces
        let lowered = text.lowercased()
        if let alias = Self.aliases.first(where: { lowered.hasPrefix($0.0) }) { text = alias.1 + text.dropFirst(alias.0.count) }
        if let base = Self.baseAliases[lowered] { text = base }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var base = (words.first ?? "").lowercased()
        if base == "begin" || base == "end", words.count > 1 { base += "_" + words[1].lowercased() }
        self.base = base
        let rest = base.contains("_group") || base.contains("_repeat") ? [] : Array(words.dropFirst())
        list = base.hasPrefix("select_") ? rest.first : nil
        orOther = rest.last?.lowercased() == "or_other"
    }

    /// The kind of value the question records, or nil for a row that records none.
    func kind(choices: [XLSFormSheets.Row]) -> ImportedField.Kind? {
        let numeric = !choices.isEmpty && choices.allSatisfy { Int($0["name"]) != nil } && !orOther
        switch base {
        case "integer", "decimal", "range": return .number
        case "text", "hidden", "calculate", "phone_number": return .text
        case "acknowledge": return .choice(numeric: false)
        case "date": return .date
        case "datetime": return .dateTime
        case "time": return .time
        case "select_one": return .choice(numeric: numeric)
        case "select_multiple": return .choices(numeric: numeric)
        default: return nil
        }
    }
}
