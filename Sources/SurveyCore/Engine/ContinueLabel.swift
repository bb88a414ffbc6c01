import Foundation
import JSON

/// The label of the button that goes forward.
public enum ContinueLabel: String, Sendable, Hashable {
    case next
    case done
    case getStarted
}
