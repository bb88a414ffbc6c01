import Foundation
import JSON

/// A FHIRPath value with a name, used in other expressions as `%name`.
public struct NamedExpression: Sendable, Hashable {
    public var name: String
    public var expression: String

    public init(name: String, expression: String) {
        self.name = name
        self.expression = expression
    }

    var json: JSONValue { .object(["name": .string(name), "expression": .string(expression)]) }
}
