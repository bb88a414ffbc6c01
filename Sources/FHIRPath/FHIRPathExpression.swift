import Foundation
import JSON

/// A FHIRPath expression, parsed and checked against the supported subset of FHIRPath N1.
///
/// ```swift
/// let score = try FHIRPathExpression("%resource.item.where(linkId in ('a' | 'b')).answer.value.sum()")
/// let value = try score.evaluate(in: FHIRPathEnvironment(resource: response))
/// ```
public struct FHIRPathExpression: Sendable {
    public let source: String
    /// The `%name` constants the expression reads other than `%resource`, `%questionnaire` and `%context`
    /// (and the built-in `%ucum`, `%sct`, `%loinc`): the variables it needs.
    public let variableNames: Set<String>
    private let root: FHIRPathNode

    /// Parses and checks the expression; throws with the position of the fault.
    public init(_ source: String) throws(FHIRPathError) {
        let (root, constants) = try FHIRPathParser.parse(source)
        self.source = source
        self.root = root
        self.variableNames = constants.subtracting(FHIRPathEvaluator.environmentConstants)
            .subtracting(FHIRPathEvaluator.builtInConstants.keys)
    }

    /// Evaluates the expression with the resource as its starting focus.
    /// Throws when an operand that must be a single item has several, when types cannot be combined,
    /// when a variable has no value, or when the evaluation goes over its `budget` (the error's
    /// ``FHIRPathError/exceeded`` then names the limit).
    public func evaluate(in environment: FHIRPathEnvironment, budget: FHIRPathBudget = .standard) throws(FHIRPathError) -> [FHIRPathValue] {
        try evaluateCounting(in: environment, budget: budget).values
    }

    /// The value and the steps its evaluation took, to see how far an expression sits from its budget.
    func evaluateCounting(in environment: FHIRPathEnvironment,
                          budget: FHIRPathBudget = .standard) throws(FHIRPathError) -> (values: [FHIRPathValue], steps: Int) {
        var evaluator = FHIRPathEvaluator(environment: environment, budget: budget)
        let values = try evaluator.evaluate(root, focus: evaluator.rootFocus)
        return (values, evaluator.steps)
    }
}
