import Foundation

/// A whole survey: one task (ORKOrderedTask, or ORKNavigableOrderedTask when it has rules).
public struct SurveyTask: Sendable, Hashable {
    public var identifier: String
    public var title: LocalizedText?
    public var steps: [Step]
    /// Rules by the identifier of the step they run after, in the author's order.
    public var navigationRules: [(stepIdentifier: String, rule: NavigationRule)]
    /// Skip rules by the identifier of the step they may skip, in the author's order.
    public var skipRules: [(stepIdentifier: String, predicate: Predicate)]
    public var shouldReportProgress: Bool?
    public var languages: [String]?
    public var timeZone: String?
    /// Offer the participant a "your answers" page once the run is complete (an addition to format v1).
    public var showAnswersOnCompletion: Bool?

    public init(identifier: String, title: LocalizedText? = nil, steps: [Step],
                navigationRules: [(stepIdentifier: String, rule: NavigationRule)] = [],
                skipRules: [(stepIdentifier: String, predicate: Predicate)] = [],
                shouldReportProgress: Bool? = nil, languages: [String]? = nil, timeZone: String? = nil,
                showAnswersOnCompletion: Bool? = nil) {
        self.identifier = identifier
        self.title = title
        self.steps = steps
        self.navigationRules = navigationRules
        self.skipRules = skipRules
        self.shouldReportProgress = shouldReportProgress
        self.languages = languages
        self.timeZone = timeZone
        self.showAnswersOnCompletion = showAnswersOnCompletion
    }

    /// A task with navigation or skip rules is navigable; one with neither is ordered.
    public var isNavigable: Bool { !navigationRules.isEmpty || !skipRules.isEmpty }

    /// `shouldReportProgress`, defaulting to true for an ordered task and false for a navigable one.
    public var reportsProgress: Bool { shouldReportProgress ?? !isNavigable }

    public func step(_ identifier: String) -> Step? {
        steps.first { $0.identifier == identifier }
    }

    public func index(of identifier: String) -> Int? {
        steps.firstIndex { $0.identifier == identifier }
    }

    public func navigationRule(for identifier: String) -> NavigationRule? {
        navigationRules.first { $0.stepIdentifier == identifier }?.rule
    }

    public func skipRule(for identifier: String) -> Predicate? {
        skipRules.first { $0.stepIdentifier == identifier }?.predicate
    }

    /// Rules are maps by step: their order in the file does not change the survey.
    public static func == (lhs: SurveyTask, rhs: SurveyTask) -> Bool {
        lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.steps == rhs.steps
            && Dictionary(lhs.navigationRules, uniquingKeysWith: { first, _ in first })
                == Dictionary(rhs.navigationRules, uniquingKeysWith: { first, _ in first })
            && Dictionary(lhs.skipRules, uniquingKeysWith: { first, _ in first })
                == Dictionary(rhs.skipRules, uniquingKeysWith: { first, _ in first })
            && lhs.shouldReportProgress == rhs.shouldReportProgress && lhs.languages == rhs.languages && lhs.timeZone == rhs.timeZone
            && lhs.showAnswersOnCompletion == rhs.showAnswersOnCompletion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(steps)
    }
}
