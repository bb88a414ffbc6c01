import Foundation
import JSON

/// A form asked once per thing it lists (every medication, every stay): after each instance a
/// page lists those given, with Change and Remove, and asks whether to add another.
public struct FormRepeat: Sendable, Hashable {
    /// What one instance is called; headings and messages number it ("Medication 2").
    public var label: LocalizedText
    /// The fewest instances the step takes (0: the list page comes first).
    public var minimum: Int
    /// The most; the list page stops offering another at this count.
    public var maximum: Int
    /// The question whose answer names an instance on the list page; the first question when absent.
    public var summary: String?
    /// The list page's question, in place of "Do you need to add another?".
    public var addAnother: LocalizedText?

    /// No survey needs more: the list page and every export stay readable.
    public static let maximumAllowed = 100

    public init(label: LocalizedText, minimum: Int = 0, maximum: Int, summary: String? = nil, addAnother: LocalizedText? = nil) {
        self.label = label
        self.minimum = minimum
        self.maximum = maximum
        self.summary = summary
        self.addAnother = addAnother
    }
}

/// Where a participant stands in a repeating form's visit.
public enum RepeatPlace: Sendable, Hashable {
    /// Answering instance `index` (its count: a new one).
    case instance(Int)
    /// The list of instances, asking whether to add another.
    case list
    /// Asked to confirm removing instance `index`.
    case removing(Int)
}

/// What a button on a repeating form's own pages asks for.
public enum RepeatAction: Sendable, Hashable {
    /// The list page's Continue: the answer to "add another?" decides.
    case another
    case change(Int)
    case remove(Int)
    /// The confirmation: remove instance `index`, or keep it.
    case confirmRemove(Int, Bool)

    /// The action a button's `_action` value names (`repeat-another`, `repeat-change-2`…).
    public init?(field: String) {
        let parts = field.split(separator: "-")
        guard parts.first == "repeat", parts.count >= 2 else { return nil }
        let number = parts.count == 3 ? Int(parts[2]) : nil
        switch (parts[1], number) {
        case ("another", nil) where parts.count == 2: self = .another
        case ("change", let index?) where index >= 0: self = .change(index)
        case ("remove", let index?) where index >= 0: self = .remove(index)
        case ("removeYes", let index?) where index >= 0: self = .confirmRemove(index, true)
        case ("removeNo", let index?) where index >= 0: self = .confirmRemove(index, false)
        default: return nil
        }
    }

    public var field: String {
        switch self {
        case .another: return "repeat-another"
        case .change(let index): return "repeat-change-\(index)"
        case .remove(let index): return "repeat-remove-\(index)"
        case .confirmRemove(let index, let confirmed): return "repeat-\(confirmed ? "removeYes" : "removeNo")-\(index)"
        }
    }

    /// The list page's yes-or-no field.
    public static let anotherField = "_another"
}
