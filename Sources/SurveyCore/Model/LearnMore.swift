import Foundation
import JSON

/// `{title, text}` shown in a disclosure the participant may open.
public struct LearnMore: Sendable, Hashable {
    public var title: LocalizedText?
    public var text: LocalizedText
    public init(title: LocalizedText? = nil, text: LocalizedText) {
        self.title = title
        self.text = text
    }
}
