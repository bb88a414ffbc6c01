import Foundation
import JSON

/// Consecutive steps shown in an order drawn once per run (counterbalancing).
public struct StepBlock: Sendable, Hashable {
    public var identifier: String
    /// The steps as written; each run gets its own order of them.
    public var steps: [String]

    public init(identifier: String, steps: [String]) {
        self.identifier = identifier
        self.steps = steps
    }

    var json: JSONValue {
        .object(JSONObject([("identifier", .string(identifier)), ("steps", .array(steps.map(JSONValue.string)))]))
    }
}

/// A limit on completed runs that meet a condition; once reached, a run that meets it ends
/// as "quota full" and goes to the screen-out address.
public struct Quota: Sendable, Hashable {
    public var identifier: String
    public var limit: Int
    public var when: Predicate

    public init(identifier: String, limit: Int, when: Predicate) {
        self.identifier = identifier
        self.limit = limit
        self.when = when
    }
}
