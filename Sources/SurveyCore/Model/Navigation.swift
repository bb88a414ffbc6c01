import Foundation
import JSON

/// Where a rule sends the participant: a step, or the end of the task (`$end`).
public enum Destination: Sendable, Hashable, CustomStringConvertible {
    case step(String)
    case end

    public static let endName = "$end"

    public init(_ name: String) {
        self = name == Self.endName ? .end : .step(name)
    }

    public var description: String {
        switch self {
        case .step(let identifier): return identifier
        case .end: return Self.endName
        }
    }
}

/// What happens when the participant goes forward from a step (ORKStepNavigationRule).
public enum NavigationRule: Sendable, Hashable {
    /// The first rule whose predicate holds gives the destination; else `default`; else the next step.
    case predicate(rules: [ConditionalDestination], default: Destination?)
    /// Always the same destination.
    case direct(Destination)

    /// Every destination the rule can lead to; nil stands for "the next step in the array".
    public var possibleDestinations: [Destination?] {
        switch self {
        case .direct(let destination):
            return [destination]
        case .predicate(let rules, let fallback):
            return rules.map(\.destination) + [fallback]
        }
    }
}

public struct ConditionalDestination: Sendable, Hashable {
    public var predicate: Predicate
    public var destination: Destination
    public init(if predicate: Predicate, destination: Destination) {
        self.predicate = predicate
        self.destination = destination
    }
}

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
        case .not(let inner):
            return inner.selectors
        case .all(let list), .any(let list):
            return list.flatMap(\.selectors)
        }
    }

    /// True when an expression is part of the test, so the answers it reads cannot be listed.
    public var usesExpression: Bool {
        switch self {
        case .expression: return true
        case .not(let inner): return inner.usesExpression
        case .all(let list), .any(let list): return list.contains(where: \.usesExpression)
        default: return false
        }
    }

    /// Every FHIRPath expression the predicate holds.
    public var expressions: [String] {
        switch self {
        case .expression(let source): return [source]
        case .not(let inner): return inner.expressions
        case .all(let list), .any(let list): return list.flatMap(\.expressions)
        default: return []
        }
    }
}

public enum ExpectedValue: Sendable, Hashable {
    case bool(Bool)
    case number(Double)
    case string(String)
}

/// A range bound: a number, or an ISO 8601 date for date results.
public enum RangeBound: Sendable, Hashable {
    case number(Double)
    case date(String)
}

/// Names a question result: `"stepId"` for a question step, `"stepId.itemId"` for a form item.
///
/// Identifiers may hold dots themselves, so the split is found against the survey's steps
/// when it loads; `stepIdentifier` and `itemIdentifier` are filled in then.
public struct ResultSelector: Sendable, Hashable, CustomStringConvertible {
    public var raw: String
    public var stepIdentifier: String
    public var itemIdentifier: String?

    public init(_ raw: String) {
        self.raw = raw
        stepIdentifier = raw
        itemIdentifier = nil
    }

    public init(step: String, item: String?) {
        raw = item.map { "\(step).\($0)" } ?? step
        stepIdentifier = step
        itemIdentifier = item
    }

    /// The identifier of the question result this selector picks inside its step result.
    public var resultIdentifier: String { itemIdentifier ?? stepIdentifier }

    public var description: String { raw }
}
