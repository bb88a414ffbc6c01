import Foundation
import JSON

/// A typed number with optional bounds, fraction digits and unit (ORKNumericAnswerFormat).
public struct NumericFormat: Sendable, Hashable, AnswerFormatRules {
    public var style: NumericStyle?
    public var unit: String?
    public var displayUnit: String?
    public var minimum: Double?
    public var maximum: Double?
    public var maximumFractionDigits: Int?
    public var defaultNumericAnswer: Double?
    public var dontKnow: DontKnowOption

    public init(style: NumericStyle? = nil, unit: String? = nil, displayUnit: String? = nil, minimum: Double? = nil,
                maximum: Double? = nil, maximumFractionDigits: Int? = nil, defaultNumericAnswer: Double? = nil,
                dontKnow: DontKnowOption = DontKnowOption()) {
        self.style = style
        self.unit = unit
        self.displayUnit = displayUnit
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultNumericAnswer = defaultNumericAnswer
        self.dontKnow = dontKnow
    }

    /// Decimal unless the author says integer, as `decimalAnswerFormatWithUnit:` is the common one.
    public var effectiveStyle: NumericStyle { style ?? .decimal }
    /// The unit shown beside the field: `displayUnit`, else `unit`.
    public var shownUnit: String? { displayUnit ?? unit }

    static let typeName = "numeric"
    static let resultType = QuestionResultType.numeric

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .numeric(NumericFormat(
            style: reader.enumeration("style", NumericStyle.self), unit: reader.string("unit"), displayUnit: reader.string("displayUnit"),
            minimum: reader.number("minimum"), maximum: reader.number("maximum"), maximumFractionDigits: reader.integer("maximumFractionDigits"),
            defaultNumericAnswer: reader.number("defaultNumericAnswer"), dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["style"] = JSONKeys.name(style)
        object["unit"] = JSONKeys.string(unit)
        object["displayUnit"] = JSONKeys.string(displayUnit)
        object["minimum"] = JSONKeys.number(minimum)
        object["maximum"] = JSONKeys.number(maximum)
        object["maximumFractionDigits"] = JSONKeys.integer(maximumFractionDigits)
        object["defaultNumericAnswer"] = JSONKeys.number(defaultNumericAnswer)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if let minimum, let maximum, maximum < minimum {
            checks.error(path / "maximum", "The maximum (\(JSONWriter.number(maximum))) must not be less than the minimum (\(JSONWriter.number(minimum))).")
        }
        if let digits = maximumFractionDigits {
            if digits < 0 || digits > 10 {
                checks.error(path / "maximumFractionDigits", "\"maximumFractionDigits\" must be from 0 to 10; it is \(digits).")
            } else if effectiveStyle == .integer, digits > 0 {
                checks.warning(path / "maximumFractionDigits", "An integer answer takes no fraction digits; \"maximumFractionDigits\" is ignored.")
            }
        }
        if let value = defaultNumericAnswer {
            if let minimum, value < minimum {
                checks.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is below the minimum \(JSONWriter.number(minimum)).")
            }
            if let maximum, value > maximum {
                checks.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is above the maximum \(JSONWriter.number(maximum)).")
            }
            if effectiveStyle == .integer, value != value.rounded() {
                checks.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is not a whole number but the answer must be.")
            }
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        let unit = shownUnit.map { " " + $0 } ?? ""
        guard let number = NumberParsing.parse(raw, language: context.language) else {
            return AnswerIssue.one(name, .notANumber, .enterNumber(whole: effectiveStyle == .integer))
        }
        if effectiveStyle == .integer, number.fractionDigits > 0 {
            return AnswerIssue.one(name, .notAWholeNumber, .enterNumber(whole: true))
        }
        if effectiveStyle == .decimal, let digits = maximumFractionDigits, number.fractionDigits > digits {
            return AnswerIssue.one(name, .tooManyFractionDigits, .fractionDigits(digits))
        }
        let tooLow = minimum.map { number.value < $0 } ?? false
        let tooHigh = maximum.map { number.value > $0 } ?? false
        guard tooLow || tooHigh else { return .answer(.numeric(number.value)) }
        switch (minimum, maximum) {
        case (let low?, let high?): return AnswerIssue.one(name, .outOfRange, .numberBetween(low: low, high: high, unit: unit))
        case (let low?, nil): return AnswerIssue.one(name, .outOfRange, .numberAtLeast(low, unit: unit))
        case (nil, let high?): return AnswerIssue.one(name, .outOfRange, .numberAtMost(high, unit: unit))
        default: return .answer(.numeric(number.value))
        }
    }

    func defaultFields(name: String) -> [(String, String)] {
        defaultNumericAnswer.map { [(name, JSONWriter.number($0))] } ?? []
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .number }

    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) {
        result.unit = unit
        result.displayUnit = displayUnit ?? unit
    }

    var dontKnowOption: DontKnowOption? { dontKnow }
    var recordedRange: ClosedRange<Double>? { (minimum ?? -.infinity)...max(maximum ?? .infinity, minimum ?? -.infinity) }
}
