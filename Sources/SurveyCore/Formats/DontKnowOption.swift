import Foundation
import JSON

/// `showDontKnowButton` and `customDontKnowButtonText`.
public struct DontKnowOption: Sendable, Hashable {
    public var show: Bool?
    public var buttonText: LocalizedText?

    public init(show: Bool? = nil, buttonText: LocalizedText? = nil) {
        self.show = show
        self.buttonText = buttonText
    }
}
