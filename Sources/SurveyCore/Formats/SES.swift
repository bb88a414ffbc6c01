import Foundation
import JSON

/// The socio-economic ladder (ORKSESAnswerFormat): ten rungs, recorded as 1 (bottom) to 10.
public struct SESFormat: Sendable, Hashable, AnswerFormatRules {
    public var topRungText: LocalizedText?
    public var bottomRungText: LocalizedText?
    public var dontKnow: DontKnowOption
    public init(topRungText: LocalizedText? = nil, bottomRungText: LocalizedText? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.topRungText = topRungText
        self.bottomRungText = bottomRungText
        self.dontKnow = dontKnow
    }
    public static let rungCount = 10

    static let typeName = "ses"
    static let resultType = QuestionResultType.ses

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        .ses(SESFormat(topRungText: reader.text("topRungText"), bottomRungText: reader.text("bottomRungText"), dontKnow: DontKnowOption(reading: reader)))
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["topRungText"] = topRungText?.json
        object["bottomRungText"] = bottomRungText?.json
        return object
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let rung = Int(LocaleDigits.ascii(raw)), (1...Self.rungCount).contains(rung) else {
            return AnswerIssue.one(name, .notAChoice, .selectAnOption)
        }
        return .answer(.ses(rung))
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .choice }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var recordedRange: ClosedRange<Double>? { 1...Double(Self.rungCount) }
    var texts: [LocalizedText?] { [topRungText, bottomRungText] }
}
