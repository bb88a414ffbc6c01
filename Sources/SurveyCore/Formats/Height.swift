import Foundation
import JSON

/// A person's height (ORKHeightAnswerFormat): centimetres, or feet and inches
/// (`{item}.feet`, `{item}.inches`) for US customary; recorded in centimetres.
public struct HeightFormat: Sendable, Hashable, AnswerFormatRules {
    public var measurementSystem: MeasurementSystem?
    public var dontKnow: DontKnowOption
    public init(measurementSystem: MeasurementSystem? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.measurementSystem = measurementSystem
        self.dontKnow = dontKnow
    }

    /// The heights taken in centimetres (the word catalogs' `heightBetweenCentimetres` says so too).
    public static let centimetreRange: ClosedRange<Double> = 1...300

    static let typeName = "height"
    static let resultType = QuestionResultType.numeric

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .height(HeightFormat(measurementSystem: reader.enumeration("measurementSystem", MeasurementSystem.self), dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["measurementSystem"] = JSONKeys.name(measurementSystem)
        return object
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard context.resolve(measurementSystem) == .USC else { return parseCentimetres(name: name, fields: fields, context: context) }
        let feetText = fields.trimmed(name + ".feet")
        let inchesText = fields.trimmed(name + ".inches")
        if feetText == nil, inchesText == nil { return .empty }
        let feet = Measurement.number(feetText, context)
        let inches = Measurement.number(inchesText, context)
        var issues: [AnswerIssue] = []
        if feet == nil || feet!.fractionDigits > 0 || !(0...9).contains(feet!.value) {
            issues.append(AnswerIssue(field: name + ".feet", code: .outOfRange, problem: .feetRange))
        }
        if inches == nil || !(0..<12).contains(inches!.value) || inches!.fractionDigits > 1 {
            issues.append(AnswerIssue(field: name + ".inches", code: .outOfRange, problem: .inchesRange))
        }
        if !issues.isEmpty { return .invalid(issues) }
        let total = (feet!.value * 12 + inches!.value) * Measurement.centimetresPerInch
        guard total > 0 else { return AnswerIssue.one(name + ".feet", .outOfRange, .heightAboveZero) }
        return .answer(.numeric(Measurement.rounded(total)))
    }

    private func parseCentimetres(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let number = NumberParsing.parse(raw, language: context.language) else {
            return AnswerIssue.one(name, .notANumber, .heightCentimetres)
        }
        guard Self.centimetreRange.contains(number.value) else { return AnswerIssue.one(name, .outOfRange, .heightBetweenCentimetres) }
        if number.fractionDigits > 1 { return AnswerIssue.one(name, .tooManyFractionDigits, .fractionDigits(1)) }
        return .answer(.numeric(Measurement.rounded(number.value)))
    }

    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        guard case .numeric(let centimetres) = answer, context.resolve(measurementSystem) == .USC else {
            return AnswerFields.plainFields(for: answer, name: name, context: context)
        }
        let inches = (centimetres / Measurement.centimetresPerInch * 10).rounded() / 10
        let feet = (inches / 12).rounded(.down)
        return [(name + ".feet", JSONWriter.number(feet)), (name + ".inches", JSONWriter.number(((inches - feet * 12) * 10).rounded() / 10))]
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .height }

    func firstField(name: String, context: AnswerContext) -> String {
        context.resolve(measurementSystem) == .USC ? name + ".feet" : name
    }

    func addResultKeys(to result: inout QuestionResult, timeZone: TimeZone) {
        result.unit = "cm"
        result.displayUnit = "cm"
    }

    var dontKnowOption: DontKnowOption? { dontKnow }
}
