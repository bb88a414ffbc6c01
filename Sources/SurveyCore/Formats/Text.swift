import Foundation
import JSON

/// Free text, one line or several (ORKTextAnswerFormat), with an optional length limit and
/// the author's regular expression and message.
public struct TextFormat: Sendable, Hashable, AnswerFormatRules {
    public var maximumLength: Int?
    /// The fewest characters an answer may have (an addition to format v1, from FHIR's `minLength`).
    public var minimumLength: Int?
    public var multipleLines: Bool?
    public var validationRegularExpression: String?
    public var invalidMessage: LocalizedText?
    public var defaultTextAnswer: String?
    public var dontKnow: DontKnowOption

    public init(maximumLength: Int? = nil, multipleLines: Bool? = nil, validationRegularExpression: String? = nil,
                invalidMessage: LocalizedText? = nil, defaultTextAnswer: String? = nil, dontKnow: DontKnowOption = DontKnowOption()) {
        self.maximumLength = maximumLength
        self.multipleLines = multipleLines
        self.validationRegularExpression = validationRegularExpression
        self.invalidMessage = invalidMessage
        self.defaultTextAnswer = defaultTextAnswer
        self.dontKnow = dontKnow
    }

    /// Zero means no limit, as in ResearchKit.
    public var lengthLimit: Int? {
        guard let maximumLength, maximumLength > 0 else { return nil }
        return maximumLength
    }

    static let typeName = "text"
    static let resultType = QuestionResultType.text

    static func decode(_ reader: ObjectReader) -> AnswerFormat? {
        var format = TextFormat(
            maximumLength: reader.integer("maximumLength"), multipleLines: reader.bool("multipleLines"),
            validationRegularExpression: reader.string("validationRegularExpression"), invalidMessage: reader.text("invalidMessage"),
            defaultTextAnswer: reader.string("defaultTextAnswer"), dontKnow: DontKnowOption(reading: reader))
        format.minimumLength = reader.integer("minimumLength")
        return .text(format)
    }

    var jsonKeys: JSONObject {
        var object = JSONObject()
        object["maximumLength"] = JSONKeys.integer(maximumLength)
        object["minimumLength"] = JSONKeys.integer(minimumLength)
        object["multipleLines"] = JSONKeys.flag(multipleLines)
        object["validationRegularExpression"] = JSONKeys.string(validationRegularExpression)
        object["invalidMessage"] = invalidMessage?.json
        object["defaultTextAnswer"] = JSONKeys.string(defaultTextAnswer)
        return object
    }

    func check(_ checks: FormatChecks, at path: JSONPath) {
        if let length = maximumLength, length < 0 {
            checks.error(path / "maximumLength", "\"maximumLength\" must be 0 (no limit) or more; it is \(length).")
        }
        switch (validationRegularExpression, invalidMessage) {
        case (let pattern?, _?):
            BoundedRegex.check(pattern, at: path / "validationRegularExpression", checks.log)
        case (let pattern?, nil):
            // ResearchKit refuses one without the other, and so does the format: a participant
            // whose answer does not match must be told what to enter.
            BoundedRegex.check(pattern, at: path / "validationRegularExpression", checks.log)
            checks.error(path / "invalidMessage", "\"validationRegularExpression\" needs an \"invalidMessage\" to go with it, "
                + "telling a participant whose answer does not match what to enter.")
        case (nil, _?):
            checks.error(path / "validationRegularExpression", "\"invalidMessage\" needs a \"validationRegularExpression\" to go with it.")
        case (nil, nil):
            break
        }
        if let minimum = minimumLength {
            if minimum < 1 {
                checks.error(path / "minimumLength", "\"minimumLength\" must be 1 or more; it is \(minimum).")
            } else if let limit = lengthLimit, minimum > limit {
                checks.error(path / "minimumLength", "\"minimumLength\" (\(minimum)) must not be more than \"maximumLength\" (\(limit)).")
            }
        }
        if let text = defaultTextAnswer, let limit = lengthLimit, text.utf16.count > limit {
            checks.warning(path / "defaultTextAnswer", "The default text is longer than \"maximumLength\" (\(limit)).")
        }
    }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields[name] else { return .empty }
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .empty }
        if let limit = lengthLimit, text.utf16.count > limit {
            return AnswerIssue.one(name, .tooLong, .tooLong(limit: limit))
        }
        if let minimum = minimumLength, text.utf16.count < minimum {
            return AnswerIssue.one(name, .tooShort, .tooShort(limit: minimum))
        }
        if let pattern = validationRegularExpression {
            // Matching is bounded (BoundedRegex): an answer too long to match, or one that runs
            // the pattern out of steps, is refused like one that does not match.
            if text.utf16.count > BoundedRegex.inputLimit {
                return AnswerIssue.one(name, .tooLong, .tooLong(limit: BoundedRegex.inputLimit))
            }
            if BoundedRegex.search(pattern, in: text) != .match {
                return AnswerIssue.one(name, .pattern, .pattern(message: invalidMessage, answer: text))
            }
        }
        return .answer(.text(text))
    }

    func defaultFields(name: String) -> [(String, String)] { defaultTextAnswer.map { [(name, $0)] } ?? [] }
    var missingAnswer: AnswerIssue.MissingAnswer { .text }
    var dontKnowOption: DontKnowOption? { dontKnow }
    var texts: [LocalizedText?] { [invalidMessage] }
}
