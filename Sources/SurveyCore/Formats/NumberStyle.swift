import Foundation
import JSON

public enum NumberStyle: String, Sendable, Hashable, CaseIterable {
    case `default`
    case percent
}
