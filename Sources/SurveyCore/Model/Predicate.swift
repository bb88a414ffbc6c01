import Foundation
import JSON

/// A test on the answers so far (ORKResultPredicate as data).
public indirect enum Predicate: Sendable, Hashable {
    /// The selected result equals a boolean, number or string.
    case equals(ResultSelector, ExpectedValue)
    /// The given value is among the selected choices.
    case choice(ResultSelector, ChoiceValue)
    /// Every listed value is among the selected choices (others may be too).
    case choices(ResultSelector, [ChoiceValue])
    /// The text, or a selected choice, matches the expression as a whole string.
    case matches(ResultSelector, String)
    /// A number, scale, interval or date within inclusive bounds (either may be absent).
    case range(ResultSelector, minimum: RangeBound?, maximum: RangeBound?)
    /// A time of day within inclusive bounds, compared as minutes of the day.
    case timeRange(ResultSelector, minimum: String?, maximum: String?)
    /// The result exists with no answer (skipped or left empty); `false` negates.
    case isNil(ResultSelector, Bool)
    /// The answer is "I don't know"; `false` negates.
    case dontKnow(ResultSelector, Bool)
    /// The question has an answer (FHIR's `exists`); a missing, hidden or empty one has none. `false` negates.
    case answered(ResultSelector, Bool)
    /// An answer compares to the value (FHIR's enableWhen): any of several answers may; with no
    /// answer only `!=` holds.
    case compare(ResultSelector, ComparisonOperator, ExpectedValue)
    /// A FHIRPath expression that gives `true` on the response so far.
    case expression(String)
    case not(Predicate)
    /// A test on a repeating form's item that every instance passes (at least one instance
    /// given); the same test alone holds when any instance passes it.
    case everyInstance(Predicate)
    case all([Predicate])
    case any([Predicate])

    /// Every result selector the predicate names.
    public var selectors: [ResultSelector] {
        switch self {
        case .equals(let selector, _), .choice(let selector, _), .choices(let selector, _), .matches(let selector, _),
             .range(let selector, _, _), .timeRange(let selector, _, _), .isNil(let selector, _), .dontKnow(let selector, _),
             .answered(let selector, _), .compare(let selector, _, _):
            return [selector]
        case .expression:
            return []
        case .not(let inner), .everyInstance(let inner):
            return inner.selectors
        case .all(let list), .any(let list):
            return list.flatMap(\.selectors)
        }
    }

    /// True when an expression is part of the test, so the answers it reads cannot be listed.
    public var usesExpression: Bool {
        switch self {
        case .expression: return true
        case .not(let inner), .everyInstance(let inner): return inner.usesExpression
        case .all(let list), .any(let list): return list.contains(where: \.usesExpression)
        default: return false
        }
    }

    /// Every FHIRPath expression the predicate holds.
    public var expressions: [String] {
        switch self {
        case .expression(let source): return [source]
        case .not(let inner), .everyInstance(let inner): return inner.expressions
        case .all(let list), .any(let list): return list.flatMap(\.expressions)
        default: return []
        }
    }
}
