import Foundation
import JSON

/// A range bound: a number, or an ISO 8601 date for date results.
public enum RangeBound: Sendable, Hashable {
    case number(Double)
    case date(String)
}
