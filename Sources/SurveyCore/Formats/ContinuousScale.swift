import Foundation
import JSON

/// A continuous slider (ORKContinuousScaleAnswerFormat); the web asks for the number, with
/// the scale's bounds and fraction digits, as a percent when the style says so.
public struct ContinuousScaleFormat: Sendable, Hashable, AnswerFormatRules {
    public var minimum: Double
    public var maximum: Double
    public var maximumFractionDigits: Int?
    public var defaultValue: Double?
    public var vertical: Bool?
    public var numberStyle: NumberStyle?
    public var minimumValueDescription: LocalizedText?
    public var maximumValueDescription: LocalizedText?
    public var dontKnow: DontKnowOption

    public init(minimum: Double, maximum: Double, maximumFractionDigits: Int? = nil, defaultValue: Double? = nil,
                vertical: Bool? = nil, numberStyle: NumberStyle? = nil, minimumValueDescription: LocalizedText? = nil,
                maximumValueDescription: LocalizedText? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.numberStyle = numberStyle
        self.minimumValueDescription = minimumValueDescription
        self.maximumValueDescription = maximumValueDescription
        self.dontKnow = dontKnow
    }

    public var fractionDigits: Int { maximumFractionDigits ?? 0 }
    public var isPercent: Bool { numberStyle == .percent }

    /// The recorded value as the participant reads it (a percent of 0.25 is 25).
    public func shown(_ value: Double) -> Double { isPercent ? (value * 100 * 1e6).rounded() / 1e6 : value }

    static let typeName = "continuousScale"
    static let resultType = QuestionResultType.scale

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        let minimum = reader.number("minimum", required: true)
        let maximum = reader.number("maximum", required: true)
        let fractionDigits = reader.integer("maximumFractionDigits")
        let defaultValue = reader.number("defaultValue")
        let vertical = reader.bool("vertical")
        let numberStyle = reader.enumeration("numberStyle", NumberStyle.self)
        let minimumDescription = reader.text("minimumValueDescription")
        let maximumDescription = reader.text("maximumValueDescription")
        let dontKnow = DontKnowOption(reading: reader)
        guard let minimum, let maximum else { return nil }
        return .continuousScale(ContinuousScaleFormat(
            minimum: minimum, maximum: maximum, maximumFractionDigits: fractionDigits, defaultValue: defaultValue, vertical: vertical,
            numberStyle: numberStyle, minimumValueDescription: minimumDescription, maximumValueDescription: maximumDescription, dontKnow: dontKnow))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["minimum"] = JSONKeys.number(minimum)
        object["maximum"] = JSONKeys.number(maximum)
        object["maximumFractionDigits"] = JSONKeys.integer(maximumFractionDigits)
        object["defaultValue"] = JSONKeys.number(defaultValue)
        object["vertical"] = JSONKeys.flag(vertical)
        object["numberStyle"] = JSONKeys.name(numberStyle)
        object["minimumValueDescription"] = minimumValueDescription?.json
        object["maximumValueDescription"] = maximumValueDescription?.json
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        var digits = fractionDigits
        if let given = maximumFractionDigits, !(0...4).contains(given) {
            checks.error(path / "maximumFractionDigits", "\"maximumFractionDigits\" must be from 0 to 4; it is \(given).")
            digits = min(max(given, 0), 4)
        }
        let limit = 100_000 * pow(10, Double(-digits))
        if minimum < -limit {
            checks.error(path / "minimum", "With \(digits) fraction digits the minimum must be \(JSONWriter.number(-limit)) or more; it is \(JSONWriter.number(minimum)).")
        }
        if maximum > limit {
            checks.error(path / "maximum", "With \(digits) fraction digits the maximum must be \(JSONWriter.number(limit)) or less; it is \(JSONWriter.number(maximum)).")
        }
        if maximum <= minimum {
            checks.error(path / "maximum", "A continuous scale's maximum (\(JSONWriter.number(maximum))) must be greater than its minimum (\(JSONWriter.number(minimum))).")
        }
        if let value = defaultValue, value < minimum || value > maximum {
            checks.warning(path / "defaultValue", "The default \(JSONWriter.number(value)) is outside the scale, so nothing is chosen by default.")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard var raw = fields.trimmed(name) else { return .empty }
        if isPercent, raw.hasSuffix("%") { raw = String(raw.dropLast()) }
        let factor = isPercent ? 100.0 : 1.0
        let digits = min(max(fractionDigits, 0), 4)
        // Scaled bounds are rounded to the digits shown, so 0.07 reads as 7 and not 7.000000000000001.
        let shown = pow(10, Double(digits))
        let low = (minimum * factor * shown).rounded() / shown
        let high = (maximum * factor * shown).rounded() / shown
        let range = AnswerIssue.Problem.numberBetween(low: low, high: high, unit: isPercent ? "%" : "")
        guard let number = NumberParsing.parse(raw, language: context.language) else {
            return AnswerIssue.one(name, .notANumber, range)
        }
        if number.fractionDigits > digits {
            return AnswerIssue.one(name, .tooManyFractionDigits, .fractionDigits(digits))
        }
        if number.value < low || number.value > high {
            return AnswerIssue.one(name, .outOfRange, range)
        }
        let scaled = number.value / factor
        let rounding = pow(10, Double(digits) + (isPercent ? 2 : 0))
        return .answer(.scale((scaled * rounding).rounded() / rounding))
    }

    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        guard case .scale(let value) = answer else { return AnswerFields.plainFields(for: answer, name: name, context: context) }
        return [(name, JSONWriter.number(shown(value)))]
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .number }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var recordedRange: ClosedRange<Double>? { maximum >= minimum ? minimum...maximum : nil }
    var texts: [LocalizedText?] { [minimumValueDescription, maximumValueDescription] }
}
