import Foundation
import JSON

/// A length of time under a day (ORKTimeIntervalAnswerFormat), typed as hours and minutes
/// (`{item}.hours`, `{item}.minutes`) and recorded in seconds.
public struct TimeIntervalFormat: Sendable, Hashable, AnswerFormatRules {
    public var defaultInterval: Double?
    public var step: Int?
    public var dontKnow: DontKnowOption
    public init(defaultInterval: Double? = nil, step: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.defaultInterval = defaultInterval
        self.step = step
        self.dontKnow = dontKnow
    }
    public var effectiveStep: Int { step ?? 1 }

    static let typeName = "timeInterval"
    static let resultType = QuestionResultType.timeInterval

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .timeInterval(TimeIntervalFormat(defaultInterval: reader.number("defaultInterval"), step: reader.integer("step"),
                                         dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["defaultInterval"] = JSONKeys.number(defaultInterval)
        object["step"] = JSONKeys.integer(step)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if let step, !(1...30).contains(step) {
            checks.error(path / "step", "\"step\" must be from 1 to 30 minutes; it is \(step).")
        }
        if let interval = defaultInterval, interval < 0 || interval > 86_340 {
            checks.error(path / "defaultInterval", "\"defaultInterval\" must be from 0 to 86340 seconds (23 h 59 min); it is \(JSONWriter.number(interval)).")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        let hoursText = fields.trimmed(name + ".hours")
        let minutesText = fields.trimmed(name + ".minutes")
        if hoursText == nil, minutesText == nil { return .empty }
        var issues: [AnswerIssue] = []
        let hours = hoursText.map { Int(LocaleDigits.ascii($0)) } ?? 0
        let minutes = minutesText.map { Int(LocaleDigits.ascii($0)) } ?? 0
        if hours == nil || !(0...23).contains(hours!) {
            issues.append(AnswerIssue(field: name + ".hours", code: .outOfRange, problem: .hoursRange))
        }
        if minutes == nil || !(0...59).contains(minutes!) {
            issues.append(AnswerIssue(field: name + ".minutes", code: .outOfRange, problem: .minutesRange))
        }
        if !issues.isEmpty { return .invalid(issues) }
        if minutes! % effectiveStep != 0 {
            return AnswerIssue.one(name + ".minutes", .notOnInterval, .minutesInSteps(effectiveStep))
        }
        return .answer(.timeInterval(Double((hours! * 60 + minutes!) * 60)))
    }

    /// Minutes as the hours and minutes boxes.
    static func intervalFields(_ minutes: Int, name: String) -> [(String, String)] {
        [(name + ".hours", String(minutes / 60)), (name + ".minutes", String(minutes % 60))]
    }

    func defaultFields(name: String) -> [(String, String)] {
        guard let seconds = defaultInterval else { return [] }
        return Self.intervalFields(Int(seconds / 60) / effectiveStep * effectiveStep, name: name)
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .duration }
    func firstField(name: String, context: AnswerContext) -> String { name + ".hours" }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var recordedRange: ClosedRange<Double>? { 0...86_340 }
}
