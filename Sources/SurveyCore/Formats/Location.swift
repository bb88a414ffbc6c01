import Foundation
import JSON

/// A place (ORKLocationAnswerFormat): the address as typed, with coordinates when a
/// browser's progressive enhancement sends valid ones (`{item}.latitude`, `.longitude`).
public struct LocationFormat: Sendable, Hashable, AnswerFormatRules {
    public init() {}

    static let typeName = "location"
    static let resultType = QuestionResultType.location

    static func decode(_ reader: ObjectReader) -> AnswerFormat? { .location(LocationFormat()) }

    var jsonKeys: JSONObject { JSONObject() }

    func parse(name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        var location = LocationAnswer(userInput: raw)
        if let latitude = fields.trimmed(name + ".latitude").flatMap(Double.init), let longitude = fields.trimmed(name + ".longitude").flatMap(Double.init),
           (-90...90).contains(latitude), (-180...180).contains(longitude) {
            location.latitude = latitude
            location.longitude = longitude
        }
        return .answer(.location(location))
    }

    var missingAnswer: AnswerIssue.MissingAnswer { .address }
}
