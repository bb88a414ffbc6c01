import Foundation
import JSON

public enum NumericStyle: String, Sendable, Hashable, CaseIterable {
    case integer
    case decimal
}
