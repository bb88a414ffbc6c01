import Foundation
import JSON

/// The free-text field of an "other" choice (ORKTextChoiceOther).
public struct OtherOption: Sendable, Hashable {
    public var placeholder: LocalizedText?
    /// When false, choosing "other" requires text. ResearchKit's default is true.
    public var optional: Bool?

    public init(placeholder: LocalizedText? = nil, optional: Bool? = nil) {
        self.placeholder = placeholder
        self.optional = optional
    }

    public var isOptional: Bool { optional ?? true }
}
