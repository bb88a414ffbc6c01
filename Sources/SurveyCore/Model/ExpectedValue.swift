import Foundation
import JSON

public enum ExpectedValue: Sendable, Hashable {
    case bool(Bool)
    case number(Double)
    case string(String)
}
