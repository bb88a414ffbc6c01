import Foundation
import SurveyAnalysis
import SurveyCore

/// The preview's sentences about paths: a step's line on the map, why a step is shown, why
/// steps before it were skipped, what a path needs, and why a step cannot be reached.
public struct PreviewExplanation {
    let pages: SurveyPages
    let words: PreviewExplainer

    public init(pages: SurveyPages) {
        self.pages = pages
        words = PreviewExplainer(task: pages.task, texts: pages.texts, language: pages.languages[0])
    }

    private func plain(_ text: LocalizedText?) -> String? {
        pages.texts.plain(text, language: pages.languages[0], fallback: pages.languages)
    }

    /// A step on the map: its type, title, questions with their formats, rules and skip rule.
    /// The map's picture of the survey's moves (`StepDiagram`), its steps that no answers reach marked.
    public func diagram(unreachable: Set<String>) -> String {
        StepDiagram(task: pages.task, words: words, unreachable: unreachable).svg()
    }

    public func mapRow(_ step: Step) -> [String: Any] {
        var questions: [[String: String]] = []
        switch step.kind {
        case .question(let content):
            questions.append(["identifier": step.identifier, "text": plain(content.question) ?? "",
                              "format": words.summary(content.answerFormat)])
        case .form(let content):
            for case .question(let question) in content.items {
                questions.append(["identifier": question.identifier, "text": plain(question.text) ?? "",
                                  "format": words.summary(question.answerFormat)])
            }
        case .consentSharing, .consentReview:
            // What the consent steps record, under the names the results and exports use.
            for question in step.questions {
                questions.append(["identifier": question.identifier, "text": "", "format": words.summary(question.answerFormat)])
            }
        case .visualConsent:
            let sections = pages.task.consentDocument?.visualSections ?? []
            questions.append(["identifier": "", "text": sections.map { plain($0.title) ?? $0.type.rawValue }.joined(separator: " · "),
                              "format": "\(sections.count) pages, one per section"])
        default:
            break
        }
        var row: [String: Any] = [
            "identifier": step.identifier, "type": step.kind.typeName, "questions": questions, "hasQuestions": !questions.isEmpty,
        ]
        if let title = plain(step.title) { row["title"] = title }
        var rules = pages.task.navigationRule(for: step.identifier).map { words.rule(from: step.identifier, rule: $0) } ?? []
        if step.isConsentReview { rules.append("Disagree ends the run (finish reason declined); Agree, then certification, goes on.") }
        if let repeating = step.repeating {
            let name = plain(repeating.label) ?? step.identifier
            rules.append("Asked once per \u{201C}\(name)\u{201D}: \(repeating.minimum) to \(repeating.maximum), each added from a list with Change and Remove; \u{201C}\(step.identifier)\u{201D} is their number.")
        }
        if case .form(let content) = step.kind, content.isGrid { rules.append("Shown as a grid: a row per question, a column per choice.") }
        row["rules"] = rules
        row["hasRules"] = !rules.isEmpty
        if let skip = pages.task.skipRule(for: step.identifier) { row["skip"] = words.skipRule(skip) }
        return row
    }

    /// Why a step cannot be reached.
    public func unreachable(_ reason: UnreachableReason) -> String {
        switch reason {
        case .noPath:
            return PreviewChrome["noPath"]
        case .conditionsNeverHold(let conditions):
            return PreviewChrome.sentence("conditionsNeverHold",
                                          conditions.map { words.words($0) }.joined(separator: PreviewChrome["conditionsJoin"]))
        case .alwaysSkipped(let predicate):
            return PreviewChrome.sentence("alwaysSkipped", words.words(predicate))
        }
    }

    /// What the path of a witness needs, when any of its moves is conditional.
    public func condition(_ witness: Witness) -> String? {
        let conditions = witness.moves.compactMap(\.condition)
        guard !conditions.isEmpty else { return nil }
        return conditions.map { words.words($0) }.joined(separator: PreviewChrome["conditionThen"])
    }

    /// Why the run's visit `index` shows its step: the move that led there from the visit before.
    public func why(_ run: TaskRun, visit index: Int) -> [String] {
        guard index > 0 else { return [PreviewChrome["first"]] }
        let passages = pages.navigator.explain(run).steps
        guard passages.indices.contains(index - 1), let move = passages[index - 1].move else { return [] }
        let to = words.words(move.to)
        switch move.kind {
        case .next:
            return [PreviewChrome.sentence("whyNext", move.from, to)]
        case .always:
            return [PreviewChrome.sentence("whyAlways", move.from, to)]
        case .rule:
            guard let predicate = move.predicate else { return [] }
            return [PreviewChrome.sentence("whyRule", move.from, words.words(predicate), to, answers(predicate, in: run))]
        case .otherwise:
            return [PreviewChrome.sentence("whyOtherwise", move.from, to)]
        }
    }

    /// The steps skip rules passed over before the run's visit `index`, each with its rule.
    public func skipped(_ run: TaskRun, visit index: Int) -> [String] {
        pages.navigator.explain(run).steps.prefix(index).flatMap { passage in
            passage.skippedAfter.map { PreviewChrome.sentence("skippedLine", $0.step, words.skipRule($0.predicate)) }
        }
    }

    /// The answers a predicate tested, in words: "fever = Yes".
    private func answers(_ predicate: SurveyCore.Predicate, in run: TaskRun) -> String {
        let result = pages.navigator.result(of: run, now: Date())
        let context = AnswerContext(language: pages.languages[0], timeZone: pages.navigator.timeZone)
        var seen = Set<String>()
        var said: [String] = []
        for selector in predicate.selectors where seen.insert(selector.raw).inserted {
            guard let question = result.questionResult(selector) else {
                said.append(PreviewChrome.sentence("notOnPath", selector.raw))
                continue
            }
            let format = pages.task.step(selector.stepIdentifier)?.questions.first { $0.identifier == selector.resultIdentifier }?.answerFormat
            let answer = format.flatMap { pages.display(question.answer, format: $0, language: "en", context: context) }
                ?? PreviewChrome["noAnswer"]
            said.append(PreviewChrome.sentence("answerIs", selector.raw, answer))
        }
        return said.joined(separator: ", ")
    }
}
