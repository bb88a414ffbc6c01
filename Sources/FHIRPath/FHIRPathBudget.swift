import Foundation
import JSON

/// How much work one evaluation of an expression may do before it is stopped.
///
/// An expression comes from a survey's author and runs on every page that needs it, so it must not
/// hold a page or grow the process without bound (a `select` nested in a `select`, a variable that
/// doubles a string). Every evaluation gets the whole budget afresh; going over any limit stops it at
/// once with a ``FHIRPathError`` whose ``FHIRPathError/exceeded`` names the limit.
///
/// The ``standard`` limits are far above what real questionnaires need: LOINC's PHQ-9 works out one
/// of its nine scores in under 400 steps and its total in under 30, with collections of at most nine
/// items and no text built at all.
///
/// - ``steps``: 200,000. A step is one node of the expression evaluated, one item a name or
///   function reads or yields, one comparison `distinct`, `=`, `~`, `in` and `contains` make, and
///   one for every 32 bytes of text built. Running out of them takes about 40 ms of one core in a
///   release build (a `select` nested three deep over 50 items).
/// - ``collectionSize``: 50,000 items in any collection an expression builds, far above the
///   items of the largest questionnaires.
/// - ``stringLength``: 100,000 bytes of UTF-8 in any string an expression builds (with `&`, `+`
///   or a quantity's unit), so a long text answer can still be joined to a label.
public struct FHIRPathBudget: Sendable, Equatable {
    /// Steps one evaluation may take.
    public var steps: Int
    /// Items any collection built on the way may hold.
    public var collectionSize: Int
    /// UTF-8 bytes any string built on the way may hold.
    public var stringLength: Int

    public init(steps: Int, collectionSize: Int, stringLength: Int) {
        self.steps = steps
        self.collectionSize = collectionSize
        self.stringLength = stringLength
    }

    /// The limits every expression of a survey is evaluated with.
    public static let standard = FHIRPathBudget(steps: 200_000, collectionSize: 50_000, stringLength: 100_000)

    /// One of the limits, with its value.
    public enum Limit: Sendable, Hashable, CustomStringConvertible {
        case steps(Int)
        case collectionSize(Int)
        case stringLength(Int)

        /// "200000 evaluation steps", "50000 items in a collection", "100000 bytes in a string".
        public var description: String {
            switch self {
            case .steps(let value): return "\(value) evaluation steps"
            case .collectionSize(let value): return "\(value) items in a collection"
            case .stringLength(let value): return "\(value) bytes in a string"
            }
        }
    }
}
