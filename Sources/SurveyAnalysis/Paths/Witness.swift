import Foundation
import JSON
import SurveyCore

/// Answers that lead to a step, and what they do on the way.
public struct Witness: Sendable {
    /// In the answers-file format, in path order: each step's form fields as a JSON object
    /// (field name → string or array of strings, exactly what `FormFields(json:)` reads), or
    /// the string "$skip" for an optional step skipped. Steps with nothing to answer
    /// (instructions) get `{}`. The target step itself is not included.
    public let answers: [(step: String, value: JSONValue)]
    /// The steps shown on the way, in order, ending with the target.
    public let path: [String]
    /// Steps passed over by their skip rule on the way, with the rule's predicate.
    public let skipped: [(step: String, predicate: SurveyCore.Predicate)]
    /// The moves taken, one per step on the path before the target.
    public let moves: [RuleGraph.Edge]

    public init(answers: [(step: String, value: JSONValue)], path: [String], skipped: [(step: String, predicate: SurveyCore.Predicate)],
                moves: [RuleGraph.Edge]) {
        self.answers = answers
        self.path = path
        self.skipped = skipped
        self.moves = moves
    }

    /// The answers as one answers file: an object from step identifier to its fields, in path order.
    public var answersFile: JSONValue {
        .object(JSONObject(answers.map { (key: $0.step, value: $0.value) }))
    }
}
