import Foundation
import JSON

/// One choice of an image choice: a picture with its alternative text.
public struct ImageChoice: Sendable, Hashable {
    public var image: String
    public var imageAlt: LocalizedText
    public var text: LocalizedText?
    public var value: ChoiceValue
    public init(image: String, imageAlt: LocalizedText, text: LocalizedText? = nil, value: ChoiceValue) {
        self.image = image
        self.imageAlt = imageAlt
        self.text = text
        self.value = value
    }

    /// The choice as a text choice, labelled by its text or else its alternative text.
    public var asTextChoice: TextChoice { TextChoice(text: text ?? imageAlt, value: value) }
}
