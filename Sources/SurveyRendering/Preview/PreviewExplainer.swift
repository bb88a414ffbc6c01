import Foundation
import SurveyCore

/// A survey's paths in words for the researcher who previews it: every navigation rule's test,
/// every skip and visibility rule, and every question's answer format.
///
/// Questions are named by their identifiers (`fever`, `temperature.celsius`), which the
/// researcher wrote; choices by their texts in the survey's own words, in quotes; numbers
/// with the question's unit. The wording of tests is in `+Predicate`, of formats in `+Format`,
/// and every word in `PreviewWords`.
public struct PreviewExplainer: Sendable {
    let task: SurveyTask
    let texts: RichTextCache
    /// The language the survey's own texts are shown in.
    let language: String
    /// Month names and the participant's buttons ("I don't know") come from the catalog.
    let catalog: Catalog
    /// The zone date-time bounds are shown in: the survey's, else UTC (then named).
    let timeZone: TimeZone
    let namesZone: Bool
    /// Each question's format by the name a predicate gives it: "stepId" or "stepId.itemId".
    private let formats: [String: AnswerFormat]

    public init(task: SurveyTask, texts: RichTextCache, language: String = "en") {
        self.task = task
        self.texts = texts
        self.language = language
        catalog = Catalog(language: "en")
        let zone = task.timeZone.flatMap(TimeZone.init(identifier:))
        timeZone = zone ?? .gmt
        namesZone = zone == nil
        var formats: [String: AnswerFormat] = [:]
        for step in task.steps {
            switch step.kind {
            case .question(let content):
                if formats[step.identifier] == nil { formats[step.identifier] = content.answerFormat }
            case .form(let content):
                for case .question(let question) in content.items {
                    let name = step.identifier + "." + question.identifier
                    if formats[name] == nil { formats[name] = question.answerFormat }
                }
            default:
                break
            }
        }
        self.formats = formats
    }

    /// An explainer with the survey's texts sanitized here, for a survey not already on show.
    public init(task: SurveyTask, language: String = "en") {
        self.init(task: task, texts: RichTextCache.build(for: task).cache, language: language)
    }

    // MARK: Rules

    /// Where a destination leads: "step advice", or "the end".
    public func words(_ destination: Destination) -> String {
        switch destination {
        case .step(let identifier): return PreviewWords.fill(.step, identifier)
        case .end: return PreviewWords[.end]
        }
    }

    /// A navigation rule as lines, one per destination in the order they are tried: "after fever:
    /// if fever is No → step rest", "otherwise → step temperature"; a direct rule is one line,
    /// "after advice: always → the end".
    public func rule(from stepIdentifier: String, rule: NavigationRule) -> [String] {
        var lines: [String] = []
        switch rule {
        case .direct(let destination):
            lines = [PreviewWords.fill(.alwaysGo, words(destination))]
        case .predicate(let rules, let fallback):
            for (index, entry) in rules.enumerated() {
                lines.append(PreviewWords.fill(index == 0 ? .ifGo : .otherwiseIfGo, words(entry.predicate), words(entry.destination)))
            }
            let last = fallback.map { words($0) } ?? nextStep(after: stepIdentifier)
            lines.append(PreviewWords.fill(lines.isEmpty ? .alwaysGo : .otherwiseGo, last))
        }
        lines[0] = PreviewWords.fill(.afterStep, stepIdentifier, lines[0])
        return lines
    }

    /// A skip rule: "skipped when fever is No".
    public func skipRule(_ predicate: SurveyCore.Predicate) -> String {
        PreviewWords.fill(.skipped, words(predicate))
    }

    /// A form item's visibility rule: "shown only when fever is Yes".
    public func visibility(_ predicate: SurveyCore.Predicate) -> String {
        PreviewWords.fill(.shown, words(predicate))
    }

    /// Where a rule with no default goes: the next step in the file, or the end after the last.
    private func nextStep(after identifier: String) -> String {
        guard let index = task.index(of: identifier), index + 1 < task.steps.count else { return PreviewWords[.end] }
        return PreviewWords.fill(.nextStep, task.steps[index + 1].identifier)
    }

    // MARK: Looking up

    /// The format of the question a selector names, by its whole name ("stepId.itemId" for a form item).
    func format(of selector: ResultSelector) -> AnswerFormat? {
        formats[selector.raw]
    }

    /// A survey text in the preview's language, without markup.
    func plain(_ text: LocalizedText?) -> String? {
        texts.plain(text, language: language, fallback: task.languages ?? [])
    }

    /// A survey text in quotes: “Cough”.
    func quoted(_ text: LocalizedText?) -> String? {
        plain(text).map { PreviewWords.fill(.quoted, $0) }
    }
}
