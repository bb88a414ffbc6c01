import Foundation
import JSON

/// A discrete slider (ORKScaleAnswerFormat); the web shows one radio per position.
public struct ScaleFormat: Sendable, Hashable, AnswerFormatRules {
    public var minimum: Int
    public var maximum: Int
    public var step: Int?
    public var defaultValue: Int?
    public var vertical: Bool?
    public var minimumValueDescription: LocalizedText?
    public var maximumValueDescription: LocalizedText?
    public var dontKnow: DontKnowOption

    public init(minimum: Int, maximum: Int, step: Int? = nil, defaultValue: Int? = nil, vertical: Bool? = nil,
                minimumValueDescription: LocalizedText? = nil, maximumValueDescription: LocalizedText? = nil,
                dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.minimumValueDescription = minimumValueDescription
        self.maximumValueDescription = maximumValueDescription
        self.dontKnow = dontKnow
    }

    public var effectiveStep: Int { step ?? 1 }

    /// Every value the scale offers, from minimum to maximum.
    public var values: [Int] {
        guard effectiveStep >= 1, maximum >= minimum else { return [] }
        return Array(stride(from: minimum, through: maximum, by: effectiveStep))
    }

    /// The default snapped to the scale as ResearchKit does; none when out of range.
    public var effectiveDefault: Int? {
        guard let defaultValue, defaultValue >= minimum, defaultValue <= maximum, effectiveStep >= 1 else { return nil }
        let steps = (Double(defaultValue - minimum) / Double(effectiveStep)).rounded()
        return minimum + Int(steps) * effectiveStep
    }

    static let typeName = "scale"
    static let resultType = QuestionResultType.scale

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let minimum = reader.integer("minimum", required: true)
        let maximum = reader.integer("maximum", required: true)
        let step = reader.integer("step")
        let defaultValue = reader.integer("defaultValue")
        let vertical = reader.bool("vertical")
        let minimumDescription = reader.text("minimumValueDescription")
        let maximumDescription = reader.text("maximumValueDescription")
        let dontKnow = DontKnowOption(reading: reader)
        guard let minimum, let maximum else { return nil }
        return .scale(ScaleFormat(minimum: minimum, maximum: maximum, step: step, defaultValue: defaultValue, vertical: vertical,
                                  minimumValueDescription: minimumDescription, maximumValueDescription: maximumDescription, dontKnow: dontKnow))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["minimum"] = JSONKeys.integer(minimum)
        object["maximum"] = JSONKeys.integer(maximum)
        object["step"] = JSONKeys.integer(step)
        object["defaultValue"] = JSONKeys.integer(defaultValue)
        object["vertical"] = JSONKeys.flag(vertical)
        object["minimumValueDescription"] = minimumValueDescription?.json
        object["maximumValueDescription"] = maximumValueDescription?.json
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if minimum < -10_000 {
            checks.error(path / "minimum", "A scale's minimum must be -10000 or more; it is \(minimum).")
        }
        if maximum > 10_000 {
            checks.error(path / "maximum", "A scale's maximum must be 10000 or less; it is \(maximum).")
        }
        // Bounds that far out would overflow the arithmetic below; their error is enough.
        guard (-10_000...10_000).contains(minimum), (-10_000...10_000).contains(maximum) else { return }
        if maximum < minimum {
            checks.error(path / "maximum", "A scale's maximum (\(maximum)) must not be less than its minimum (\(minimum)).")
            return
        }
        let step = effectiveStep
        guard step >= 1 else {
            checks.error(path / "step", "A scale's step must be 1 or more; it is \(step).")
            return
        }
        let range = maximum - minimum
        if range % step != 0 {
            checks.error(path / "step", "The step (\(step)) must divide the range from \(minimum) to \(maximum) (\(range)) exactly.")
            return
        }
        let steps = range / step
        if steps < 1 || steps > 13 {
            checks.error(path / (self.step == nil ? "maximum" : "step"),
                         "A scale must have from 1 to 13 steps between its minimum and maximum (2 to 14 positions); this one has \(steps).")
        }
        if let value = defaultValue, value < minimum || value > maximum {
            checks.warning(path / "defaultValue", "The default \(value) is outside \(minimum)–\(maximum), so nothing is chosen by default.")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let number = NumberParsing.parse(raw, language: context.language), number.fractionDigits == 0 else {
            return AnswerIssue.one(name, .notAChoice, .selectAnOption)
        }
        guard number.value >= Double(minimum), number.value <= Double(maximum) else {
            return AnswerIssue.one(name, .outOfRange, .scaleValueBetween(low: minimum, high: maximum))
        }
        let value = Int(number.value)
        if !values.contains(value) {
            return AnswerIssue.one(name, .notAChoice, .selectAnOption)
        }
        return .answer(.scale(Double(value)))
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var recordedRange: ClosedRange<Double>? { maximum >= minimum ? Double(minimum)...Double(maximum) : nil }
    var texts: [LocalizedText?] { [minimumValueDescription, maximumValueDescription] }
}
