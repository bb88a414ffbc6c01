import Foundation
import JSON

/// Everything the core knows about one answer format, implemented once per format in this
/// folder: the table of contents of a format's file. `AnswerFormat` (the enum the model and
/// the survey file use) hands each question to its format through `rules`.
protocol AnswerFormatRules: Sendable {
    /// The `type` name in the survey file.
    static var typeName: String { get }
    /// The kind of result the format records (spec §3).
    static var resultType: QuestionResultType { get }

    /// Reads the format's keys from the survey file (the reader has read `type`).
    static func decode(_ reader: ObjectReader) -> AnswerFormat?
    /// The format's keys as the survey file writes them, without `type` and the don't-know keys.
    var jsonKeys: JSONObject { get }
    /// ResearchKit's limits for the format: the author's errors and warnings.
    func check(_ checks: FormatChecks, at path: JSONPath)

    /// Turns the posted fields of question `name` into an answer, with ResearchKit's
    /// `isAnswerValid` rules; the don't-know box and conflicting fields are read before.
    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome
    /// The form fields that give back `answer`: what a page shows for a saved answer.
    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)]
    /// The fields shown before any answer: the default, where typing it in is harmless.
    func defaultFields(name: String) -> [(String, String)]
    /// What a required question of this format asks for when it is left empty.
    var missingAnswer: AnswerIssue.MissingAnswer { get }
    /// The field an error summary links to: the first box of the question.
    func firstField(name: String, context: AnswerContext) -> String
    /// Whether the question's own field may carry several values (the boxes of a multiple choice).
    var takesSeveralValues: Bool { get }

    /// Adds the keys this format's result carries (unit, separator, zone).
    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone)
    /// The don't-know option, for the formats where ResearchKit allows one.
    var dontKnowOption: DontKnowOption? { get }
    /// The values a participant can pick, for the choice-like formats.
    var choiceValues: [ChoiceValue]? { get }
    /// The numbers the format can record, where it bounds them (for rule checks).
    var recordedRange: ClosedRange<Double>? { get }
    /// The author's texts the format shows, for sanitizing and language checks.
    var texts: [LocalizedText?] { get }
}

extension AnswerFormatRules {
    func check(_ checks: FormatChecks, at path: JSONPath) {}
    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        AnswerFields.plainFields(for: answer, name: name, context: context)
    }
    func defaultFields(name: String) -> [(String, String)] { [] }
    func firstField(name: String, context: AnswerContext) -> String { name }
    var takesSeveralValues: Bool { false }
    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) {}
    var dontKnowOption: DontKnowOption? { nil }
    var choiceValues: [ChoiceValue]? { nil }
    var recordedRange: ClosedRange<Double>? { nil }
    var texts: [LocalizedText?] { [] }
}

/// What a format's definition checks need: the log, the survey's zone and the checks that
/// several formats share.
struct FormatChecks {
    let log: DiagnosticLog
    /// The survey's time zone, UTC when it names none.
    let timeZone: TimeZone

    func error(_ path: JSONPath, _ message: String) { log.error(path, message) }
    func warning(_ path: JSONPath, _ message: String) { log.warning(path, message) }

    /// A file path must stay under the served Public folder (remote videos may be URLs).
    func publicPath(_ path: String, at location: JSONPath, allowRemote: Bool = false) {
        let lowered = path.lowercased()
        if allowRemote, lowered.hasPrefix("https://") || lowered.hasPrefix("http://") { return }
        if lowered.contains(":") || path.hasPrefix("//") {
            log.error(location, "\"\(path)\" must be a path under the served Public folder, such as \"images/scale.png\".")
        } else if path.split(separator: "/").contains("..") || path.contains("\\") {
            log.error(location, "\"\(path)\" must not leave the Public folder (no \"..\" or backslash).")
        }
    }

    /// Values travel as form fields, so 1 and "1" would be the same answer.
    func uniqueValue(_ value: ChoiceValue, index: Int, seen: inout [ChoiceValue: Int], at path: JSONPath) {
        let key = ChoiceValue.string(value.formValue)
        if let first = seen[key] {
            log.error(path, "The value \(value.formValue) is already used by choice \(first); each choice needs its own value.")
        } else {
            seen[key] = index
        }
    }

    /// Whether the interval is usable (absent, or one that divides an hour); logs an error if not.
    @discardableResult
    func minuteInterval(_ interval: Int?, at path: JSONPath) -> Bool {
        guard let interval else { return true }
        if !(1...30).contains(interval) || 60 % interval != 0 {
            log.error(path, "\"minuteInterval\" must divide an hour and be from 1 to 30 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30); it is \(interval).")
            return false
        }
        return true
    }
}

extension DontKnowOption {
    /// `showDontKnowButton` and `customDontKnowButtonText`, which every format that offers
    /// "I don't know" reads the same way.
    init(reading reader: ObjectReader) {
        self.init(show: reader.bool("showDontKnowButton"), buttonText: reader.text("customDontKnowButtonText"))
    }
}

/// Small writers for `jsonKeys`.
enum JSONKeys {
    static func number(_ value: Double?) -> JSONValue? { value.map(JSONValue.number) }
    static func integer(_ value: Int?) -> JSONValue? { value.map { .number(Double($0)) } }
    static func flag(_ value: Bool?) -> JSONValue? { value.map(JSONValue.bool) }
    static func string(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
    static func name<E: RawRepresentable>(_ value: E?) -> JSONValue? where E.RawValue == String { value.map { .string($0.rawValue) } }
}
