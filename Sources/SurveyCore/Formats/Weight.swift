import Foundation
import JSON

/// A person's weight (ORKWeightAnswerFormat): kilograms or pounds with the precision's
/// decimals, or pounds and ounces (`{item}.pounds`, `{item}.ounces`) at high US precision;
/// recorded in kilograms.
public struct WeightFormat: Sendable, Hashable, AnswerFormatRules {
    public var measurementSystem: MeasurementSystem?
    public var numericPrecision: NumericPrecision?
    public var minimumValue: Double?
    public var maximumValue: Double?
    public var defaultValue: Double?
    public var dontKnow: DontKnowOption

    public init(measurementSystem: MeasurementSystem? = nil, numericPrecision: NumericPrecision? = nil, minimumValue: Double? = nil,
                maximumValue: Double? = nil, defaultValue: Double? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.measurementSystem = measurementSystem
        self.numericPrecision = numericPrecision
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }

    static let typeName = "weight"
    static let resultType = QuestionResultType.numeric

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .weight(WeightFormat(
            measurementSystem: reader.enumeration("measurementSystem", MeasurementSystem.self),
            numericPrecision: reader.enumeration("numericPrecision", NumericPrecision.self), minimumValue: reader.number("minimumValue"),
            maximumValue: reader.number("maximumValue"), defaultValue: reader.number("defaultValue"), dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["measurementSystem"] = JSONKeys.name(measurementSystem)
        object["numericPrecision"] = JSONKeys.name(numericPrecision)
        object["minimumValue"] = JSONKeys.number(minimumValue)
        object["maximumValue"] = JSONKeys.number(maximumValue)
        object["defaultValue"] = JSONKeys.number(defaultValue)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if let minimum = minimumValue, minimum < 0 {
            checks.error(path / "minimumValue", "\"minimumValue\" must be 0 or more; it is \(JSONWriter.number(minimum)).")
        }
        if let minimum = minimumValue, let maximum = maximumValue, maximum < minimum {
            checks.error(path / "maximumValue", "\"maximumValue\" (\(JSONWriter.number(maximum))) must not be less than \"minimumValue\" (\(JSONWriter.number(minimum))).")
        }
        if let value = defaultValue {
            if let minimum = minimumValue, value < minimum {
                checks.error(path / "defaultValue", "\"defaultValue\" must not be below \"minimumValue\".")
            }
            if let maximum = maximumValue, value > maximum {
                checks.error(path / "defaultValue", "\"defaultValue\" must not be above \"maximumValue\".")
            }
        }
    }

    /// The highest weight taken when the author sets none: 657 kg, or 1450 lb when the page
    /// asks in pounds.
    public func effectiveMaximum(pounds: Bool) -> Double { maximumValue ?? (pounds ? 1450 : 657) }

    /// Fraction digits allowed for each precision: whole units, one decimal, two decimals.
    public var allowedDigits: Int {
        switch numericPrecision ?? .default {
        case .low: return 0
        case .default: return 1
        case .high: return 2
        }
    }

    /// Whether the page asks for pounds and ounces in two boxes.
    func usesPoundsAndOunces(_ context: AnswerContext) -> Bool {
        context.resolve(measurementSystem) == .USC && numericPrecision == .high
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        let pounds = context.resolve(measurementSystem) == .USC
        let low = minimumValue ?? 0
        let high = effectiveMaximum(pounds: pounds)
        let range = AnswerIssue.Problem.weightBetween(low: low, high: high, pounds: pounds)
        var amount: Double
        if usesPoundsAndOunces(context) {
            let poundsText = fields.trimmed(name + ".pounds")
            let ouncesText = fields.trimmed(name + ".ounces")
            if poundsText == nil, ouncesText == nil { return .empty }
            let whole = Measurement.number(poundsText, context)
            let ounces = Measurement.number(ouncesText, context)
            var issues: [AnswerIssue] = []
            if whole == nil || whole!.fractionDigits > 0 || whole!.value < 0 {
                issues.append(AnswerIssue(field: name + ".pounds", code: .notAWholeNumber, problem: .poundsWhole))
            }
            if ounces == nil || ounces!.fractionDigits > 0 || !(0..<16).contains(ounces!.value) {
                issues.append(AnswerIssue(field: name + ".ounces", code: .outOfRange, problem: .ouncesRange))
            }
            if !issues.isEmpty { return .invalid(issues) }
            amount = whole!.value + ounces!.value / 16
            if amount < low || amount > high { return AnswerIssue.one(name + ".pounds", .outOfRange, range) }
        } else {
            guard let raw = fields.trimmed(name) else { return .empty }
            guard let number = NumberParsing.parse(raw, language: context.language) else {
                return AnswerIssue.one(name, .notANumber, .weightNumber(pounds: pounds))
            }
            if number.fractionDigits > allowedDigits {
                return AnswerIssue.one(name, .tooManyFractionDigits, .fractionDigits(allowedDigits))
            }
            if number.value < low || number.value > high { return AnswerIssue.one(name, .outOfRange, range) }
            amount = number.value
        }
        return .answer(.numeric(Measurement.rounded(pounds ? amount * Measurement.kilogramsPerPound : amount)))
    }

    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        guard case .numeric(let kilograms) = answer, context.resolve(measurementSystem) == .USC else {
            return AnswerFields.plainFields(for: answer, name: name, context: context)
        }
        let pounds = kilograms / Measurement.kilogramsPerPound
        if numericPrecision == .high {
            let whole = pounds.rounded(.down)
            return [(name + ".pounds", JSONWriter.number(whole)), (name + ".ounces", JSONWriter.number(((pounds - whole) * 16).rounded()))]
        }
        return [(name, JSONWriter.number((pounds * 10).rounded() / 10))]
    }

    func defaultFields(name: String) -> [(String, String)] { defaultValue.map { [(name, JSONWriter.number($0))] } ?? [] }
    var missingAnswer: AnswerIssue.MissingAnswer { .weight }
    func firstField(name: String, context: AnswerContext) -> String { usesPoundsAndOunces(context) ? name + ".pounds" : name }

    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) {
        result.unit = "kg"
        result.displayUnit = "kg"
    }

    var dontKnowOption: DontKnowOption? { dontKnow }
}
