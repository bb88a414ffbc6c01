import Foundation
import JSON

public struct FormContent: Sendable, Hashable {
    public var items: [FormItem]
    public var footerText: LocalizedText?
    public init(items: [FormItem], footerText: LocalizedText? = nil) {
        self.items = items
        self.footerText = footerText
    }
}
