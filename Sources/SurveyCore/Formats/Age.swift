import Foundation
import JSON

/// An age in whole years (ORKAgeAnswerFormat), within bounds, optionally recorded as a birth
/// year, with sentinels for "younger than" and "older than" the bounds.
public struct AgeFormat: Sendable, Hashable, AnswerFormatRules {
    public var minimumAge: Int?
    public var maximumAge: Int?
    public var minimumAgeCustomText: LocalizedText?
    public var maximumAgeCustomText: LocalizedText?
    public var showYear: Bool?
    public var useYearForResult: Bool?
    public var treatMinAgeAsRange: Bool?
    public var treatMaxAgeAsRange: Bool?
    public var relativeYear: Int?
    public var defaultValue: Int?
    public var dontKnow: DontKnowOption

    public init(minimumAge: Int? = nil, maximumAge: Int? = nil, minimumAgeCustomText: LocalizedText? = nil,
                maximumAgeCustomText: LocalizedText? = nil, showYear: Bool? = nil, useYearForResult: Bool? = nil,
                treatMinAgeAsRange: Bool? = nil, treatMaxAgeAsRange: Bool? = nil, relativeYear: Int? = nil,
                defaultValue: Int? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.minimumAge = minimumAge
        self.maximumAge = maximumAge
        self.minimumAgeCustomText = minimumAgeCustomText
        self.maximumAgeCustomText = maximumAgeCustomText
        self.showYear = showYear
        self.useYearForResult = useYearForResult
        self.treatMinAgeAsRange = treatMinAgeAsRange
        self.treatMaxAgeAsRange = treatMaxAgeAsRange
        self.relativeYear = relativeYear
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }

    /// The lowest age asked for when the author sets none: ResearchKit's plain `init` asks for
    /// an age from 1 to 125; the author may set 0 to 150.
    public static let defaultMinimum = 1
    /// The highest age asked for when the author sets none.
    public static let defaultMaximum = 125
    public var effectiveMinimum: Int { minimumAge ?? Self.defaultMinimum }
    public var effectiveMaximum: Int { maximumAge ?? Self.defaultMaximum }
    /// Recorded when the participant picks "younger than the minimum" (`treatMinAgeAsRange`).
    public static let minimumSentinel = -1
    /// Recorded when the participant picks "older than the maximum" (`treatMaxAgeAsRange`).
    public static let maximumSentinel = -2

    static let typeName = "age"
    static let resultType = QuestionResultType.numeric

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .age(AgeFormat(
            minimumAge: reader.integer("minimumAge"), maximumAge: reader.integer("maximumAge"),
            minimumAgeCustomText: reader.text("minimumAgeCustomText"), maximumAgeCustomText: reader.text("maximumAgeCustomText"),
            showYear: reader.bool("showYear"), useYearForResult: reader.bool("useYearForResult"),
            treatMinAgeAsRange: reader.bool("treatMinAgeAsRange"), treatMaxAgeAsRange: reader.bool("treatMaxAgeAsRange"),
            relativeYear: reader.integer("relativeYear"), defaultValue: reader.integer("defaultValue"), dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["minimumAge"] = JSONKeys.integer(minimumAge)
        object["maximumAge"] = JSONKeys.integer(maximumAge)
        object["minimumAgeCustomText"] = minimumAgeCustomText?.json
        object["maximumAgeCustomText"] = maximumAgeCustomText?.json
        object["showYear"] = JSONKeys.flag(showYear)
        object["useYearForResult"] = JSONKeys.flag(useYearForResult)
        object["treatMinAgeAsRange"] = JSONKeys.flag(treatMinAgeAsRange)
        object["treatMaxAgeAsRange"] = JSONKeys.flag(treatMaxAgeAsRange)
        object["relativeYear"] = JSONKeys.integer(relativeYear)
        object["defaultValue"] = JSONKeys.integer(defaultValue)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if effectiveMinimum < 0 {
            checks.error(path / "minimumAge", "\"minimumAge\" must be 0 or more; it is \(effectiveMinimum).")
        }
        if effectiveMaximum > 150 {
            checks.error(path / "maximumAge", "\"maximumAge\" must be 150 or less; it is \(effectiveMaximum).")
        }
        if effectiveMinimum >= effectiveMaximum {
            checks.error(path / (maximumAge == nil ? "minimumAge" : "maximumAge"),
                         "\"minimumAge\" (\(effectiveMinimum)) must be less than \"maximumAge\" (\(effectiveMaximum)).")
        }
        if let value = defaultValue, value < effectiveMinimum || value > effectiveMaximum {
            checks.warning(path / "defaultValue", "The default age \(value) is outside \(effectiveMinimum)–\(effectiveMaximum).")
        }
        if let year = relativeYear, !(1...9999).contains(year) {
            checks.error(path / "relativeYear", "\"relativeYear\" must be a year from 1 to 9999; it is \(year).")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let number = NumberParsing.parse(raw, language: context.language), number.fractionDigits == 0 else {
            return AnswerIssue.one(name, .notAWholeNumber, .ageWholeYears)
        }
        let range = AnswerIssue.Problem.ageBetween(low: effectiveMinimum, high: effectiveMaximum)
        guard abs(number.value) <= 10_000 else { return AnswerIssue.one(name, .outOfRange, range) }
        let age = Int(number.value)
        if age == Self.minimumSentinel, treatMinAgeAsRange == true { return .answer(.numeric(Double(age))) }
        if age == Self.maximumSentinel, treatMaxAgeAsRange == true { return .answer(.numeric(Double(age))) }
        guard age >= effectiveMinimum, age <= effectiveMaximum else { return AnswerIssue.one(name, .outOfRange, range) }
        if useYearForResult == true { return .answer(.numeric(Double(year(context) - age))) }
        return .answer(.numeric(Double(age)))
    }

    /// The year a birth year is counted from: `relativeYear`, else this year.
    private func year(_ context: AnswerContext) -> Int {
        relativeYear ?? CalendarDate(context.now, in: context.timeZone).year
    }

    func fields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        if case .numeric(let value) = answer, useYearForResult == true, value >= 0 {
            return [(name, JSONWriter.number(Double(year(context)) - value))]
        }
        return AnswerFields.plainFields(for: answer, name: name, context: context)
    }

    func defaultFields(name: String) -> [(String, String)] { defaultValue.map { [(name, String($0))] } ?? [] }
    var missingAnswer: AnswerIssue.MissingAnswer { .age }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var texts: [LocalizedText?] { [minimumAgeCustomText, maximumAgeCustomText] }
}
