import Foundation
import JSON

public enum NumericPrecision: String, Sendable, Hashable, CaseIterable {
    case `default`
    case low
    case high
}
