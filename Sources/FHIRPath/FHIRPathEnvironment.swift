import Foundation
import JSON

/// What an expression is evaluated against.
public struct FHIRPathEnvironment: Sendable {
    /// `%resource`, and the focus the expression starts on.
    public var resource: JSONValue?
    /// `%questionnaire`.
    public var questionnaire: JSONValue?
    /// `%context`; the resource when nil.
    public var context: JSONValue?
    /// `%name` → its value.
    public var variables: [String: [FHIRPathValue]]

    public init(resource: JSONValue? = nil, questionnaire: JSONValue? = nil, context: JSONValue? = nil,
                variables: [String: [FHIRPathValue]] = [:]) {
        self.resource = resource
        self.questionnaire = questionnaire
        self.context = context
        self.variables = variables
    }
}
