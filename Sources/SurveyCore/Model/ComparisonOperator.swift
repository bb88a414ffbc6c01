import Foundation
import JSON

/// How an answer is compared in a `compare` predicate (FHIR's enableWhen operators).
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case greater = ">"
    case less = "<"
    case greaterOrEqual = ">="
    case lessOrEqual = "<="
}
