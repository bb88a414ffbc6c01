import Foundation
import JSON

/// Names a question result: `"stepId"` for a question step, `"stepId.itemId"` for a form item.
///
/// Identifiers may hold dots themselves, so the split is found against the survey's steps
/// when it loads; `stepIdentifier` and `itemIdentifier` are filled in then.
public struct ResultSelector: Sendable, Hashable, CustomStringConvertible {
    public var raw: String
    public var stepIdentifier: String
    public var itemIdentifier: String?

    public init(_ raw: String) {
        self.raw = raw
        stepIdentifier = raw
        itemIdentifier = nil
    }

    public init(step: String, item: String?) {
        raw = item.map { "\(step).\($0)" } ?? step
        stepIdentifier = step
        itemIdentifier = item
    }

    /// The identifier of the question result this selector picks inside its step result.
    public var resultIdentifier: String { itemIdentifier ?? stepIdentifier }

    public var description: String { raw }
}
