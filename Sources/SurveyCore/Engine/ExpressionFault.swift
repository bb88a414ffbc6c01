import FHIRPath
import Foundation
import JSON
import Synchronization

/// An expression that went over its ``FHIRPathBudget`` on a run's answers and so counted as empty
/// (an `expression` predicate false, a calculated or initial answer absent).
///
/// It holds what the author wrote and where, never an answer. The core has no logger: whoever
/// serves runs listens (the server, once as it starts) and writes the fault to its log. A
/// listener costs nothing until a fault happens: no request binds anything.
public struct ExpressionFault: Sendable, Hashable {
    /// The survey's identifier.
    public let survey: String
    /// The expression as written in the survey.
    public let expression: String
    /// The step the expression was worked out for, nil for a survey-wide variable.
    public let step: String?
    /// The question the expression belongs to, when it belongs to one.
    public let question: String?
    /// The limit it went over.
    public let limit: FHIRPathBudget.Limit

    public init(survey: String, expression: String, step: String?, question: String?, limit: FHIRPathBudget.Limit) {
        self.survey = survey
        self.expression = expression
        self.step = step
        self.question = question
        self.limit = limit
    }

    /// The listeners, by the number `listen` gave them.
    private static let listeners = Mutex<(next: Int, all: [Int: @Sendable (ExpressionFault) -> Void])>((0, [:]))

    /// Calls `handler` with every fault from now on, in whatever thread meets it; returns the
    /// number that `stopListening` takes.
    @discardableResult
    public static func listen(_ handler: @escaping @Sendable (ExpressionFault) -> Void) -> Int {
        listeners.withLock { listeners in
            listeners.next += 1
            listeners.all[listeners.next] = handler
            return listeners.next
        }
    }

    public static func stopListening(_ number: Int) {
        _ = listeners.withLock { $0.all.removeValue(forKey: number) }
    }

    /// Tells every listener of `fault`.
    static func report(_ fault: ExpressionFault) {
        for handler in listeners.withLock({ Array($0.all.values) }) { handler(fault) }
    }
}
