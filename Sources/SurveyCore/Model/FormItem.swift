import Foundation
import JSON

/// A form's entry: a section header, a question or a note.
public enum FormItem: Sendable, Hashable {
    case section(SectionHeader)
    case question(FormQuestion)
    case note(FormNote)

    /// The condition the item shows on, for questions and notes.
    public var visibleIf: Predicate? {
        switch self {
        case .section: return nil
        case .question(let question): return question.visibleIf
        case .note(let note): return note.visibleIf
        }
    }
}
