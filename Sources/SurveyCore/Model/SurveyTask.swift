import Foundation
import JSON

/// A whole survey: one task (ORKOrderedTask, or ORKNavigableOrderedTask when it has rules).
public struct SurveyTask: Sendable, Hashable {
    public var identifier: String
    public var title: LocalizedText?
    public var steps: [Step] { didSet { index = Lookup(self) } }
    /// Rules by the identifier of the step they run after, in the author's order.
    public var navigationRules: [(stepIdentifier: String, rule: NavigationRule)] { didSet { index = Lookup(self) } }
    /// Skip rules by the identifier of the step they may skip, in the author's order.
    public var skipRules: [(stepIdentifier: String, predicate: Predicate)] { didSet { index = Lookup(self) } }
    /// Steps and rules by identifier, so a lookup does not walk a long survey.
    private var index = Lookup()

    private struct Lookup: Sendable {
        var steps: [String: Int] = [:]
        var navigationRules: [String: NavigationRule] = [:]
        var skipRules: [String: Predicate] = [:]

        init() {}

        /// The first of each identifier wins, as a search from the start would find it.
        init(_ task: SurveyTask) {
            for (position, step) in task.steps.enumerated() where steps[step.identifier] == nil { steps[step.identifier] = position }
            for entry in task.navigationRules where navigationRules[entry.stepIdentifier] == nil {
                navigationRules[entry.stepIdentifier] = entry.rule
            }
            for entry in task.skipRules where skipRules[entry.stepIdentifier] == nil { skipRules[entry.stepIdentifier] = entry.predicate }
        }
    }
    public var shouldReportProgress: Bool?
    public var languages: [String]?
    public var timeZone: String?
    /// Offer the participant a "your answers" page once the run is complete (an addition to format v1).
    public var showAnswersOnCompletion: Bool?
    /// What a clinic's kiosk does with a run its participant walked away from (an addition to format v1).
    public var kioskIdle: KioskIdlePolicy?
    /// Named FHIRPath values in scope everywhere (an addition to format v1, docs/fhir.md).
    public var variables: [NamedExpression] = []
    /// What a FHIR Questionnaire said that the survey does not show: `url`, `version`, `name`, `status`, `code`.
    public var fhir: JSONObject?
    /// What a REDCap data dictionary said of the instrument that the survey does not show.
    public var redcap: JSONObject?
    /// What the consent steps show and the participant signs (an addition to format v1).
    public var consentDocument: ConsentDocument?
    /// What a panel or lab passes in the survey's address, recorded on each run (docs/panels.md).
    public var parameters: [SurveyParameter] = []
    /// Where a completed run sends its participant back to the panel, with its code.
    public var completionRedirect: PanelRedirect?
    /// Where a screened-out run (a quota full, a screen-out ending) sends its participant.
    public var screenOutRedirect: PanelRedirect?
    /// The hosts the redirects may go to.
    public var redirectHosts: [String] = []
    /// Runs of consecutive steps each run takes in its own order.
    public var blocks: [StepBlock] = []
    /// Limits on completed runs that meet a condition.
    public var quotas: [Quota] = []

    public init(identifier: String, title: LocalizedText? = nil, steps: [Step],
                navigationRules: [(stepIdentifier: String, rule: NavigationRule)] = [],
                skipRules: [(stepIdentifier: String, predicate: Predicate)] = [],
                shouldReportProgress: Bool? = nil, languages: [String]? = nil, timeZone: String? = nil,
                showAnswersOnCompletion: Bool? = nil, kioskIdle: KioskIdlePolicy? = nil) {
        self.identifier = identifier
        self.title = title
        self.steps = steps
        self.navigationRules = navigationRules
        self.skipRules = skipRules
        self.shouldReportProgress = shouldReportProgress
        self.languages = languages
        self.timeZone = timeZone
        self.showAnswersOnCompletion = showAnswersOnCompletion
        self.kioskIdle = kioskIdle
        index = Lookup(self)
    }

    /// A task with navigation or skip rules is navigable; one with neither is ordered.
    public var isNavigable: Bool { !navigationRules.isEmpty || !skipRules.isEmpty }

    /// `shouldReportProgress`, defaulting to true for an ordered task and false for a navigable one.
    public var reportsProgress: Bool { shouldReportProgress ?? !isNavigable }

    public func step(_ identifier: String) -> Step? {
        index.steps[identifier].map { steps[$0] }
    }

    public func index(of identifier: String) -> Int? {
        index.steps[identifier]
    }

    public func navigationRule(for identifier: String) -> NavigationRule? {
        index.navigationRules[identifier]
    }

    public func skipRule(for identifier: String) -> Predicate? {
        index.skipRules[identifier]
    }

    public func parameter(_ name: String) -> SurveyParameter? {
        parameters.first { $0.name == name }
    }

    /// True when a run of this survey draws anything at its start (choice or block orders).
    public var randomizesAtStart: Bool {
        !blocks.isEmpty || steps.contains { step in step.questions.contains { $0.answerFormat.shuffles } }
    }

    /// Rules are maps by step: their order in the file does not change the survey.
    public static func == (lhs: SurveyTask, rhs: SurveyTask) -> Bool {
        lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.steps == rhs.steps
            && Dictionary(lhs.navigationRules, uniquingKeysWith: { first, _ in first })
                == Dictionary(rhs.navigationRules, uniquingKeysWith: { first, _ in first })
            && Dictionary(lhs.skipRules, uniquingKeysWith: { first, _ in first })
                == Dictionary(rhs.skipRules, uniquingKeysWith: { first, _ in first })
            && lhs.shouldReportProgress == rhs.shouldReportProgress && lhs.languages == rhs.languages && lhs.timeZone == rhs.timeZone
            && lhs.showAnswersOnCompletion == rhs.showAnswersOnCompletion && lhs.kioskIdle == rhs.kioskIdle
            && lhs.variables == rhs.variables && lhs.fhir == rhs.fhir && lhs.redcap == rhs.redcap
            && lhs.parameters == rhs.parameters && lhs.completionRedirect == rhs.completionRedirect
            && lhs.screenOutRedirect == rhs.screenOutRedirect && lhs.redirectHosts == rhs.redirectHosts
            && lhs.blocks == rhs.blocks && lhs.quotas == rhs.quotas
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(steps)
    }
}
