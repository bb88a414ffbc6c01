import Foundation
import JSON

public struct FormContent: Sendable, Hashable {
    public var items: [FormItem]
    public var footerText: LocalizedText?
    /// Asked once per instance of what it lists ("add another"), when set (docs/repeats-and-grids.md).
    public var repeating: FormRepeat?
    /// Shown as a grid: a row per question, a column per shared choice (docs/repeats-and-grids.md).
    public var grid: Bool?

    public init(items: [FormItem], footerText: LocalizedText? = nil, repeating: FormRepeat? = nil, grid: Bool? = nil) {
        self.items = items
        self.footerText = footerText
        self.repeating = repeating
        self.grid = grid
    }

    public var isGrid: Bool { grid == true }

    /// The form's questions, in order.
    public var formQuestions: [FormQuestion] {
        items.compactMap { if case .question(let question) = $0 { return question } else { return nil } }
    }
}
