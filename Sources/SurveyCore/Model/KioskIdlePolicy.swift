import Foundation
import JSON

/// What happens to a kiosk run when its participant leaves it idle past the deadline.
public enum KioskIdlePolicy: String, Sendable, Hashable, CaseIterable {
    /// The run and its answers are deleted (the default).
    case discard
    /// The run is kept as saved for later, its answers so far in the results.
    case save
}
