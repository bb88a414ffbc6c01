import Foundation
import JSON
import Mustache
import SurveyCore

extension SurveyPages {
    /// The preview's panel beside a step: why the step is shown, the steps skipped on the way
    /// and why, the answers so far (each with a link to change it), and the result so far as
    /// spec §5 JSON, folded. A run that has ended keeps its change links: the preview opens it
    /// again at the answer to change.
    public func renderPreviewPanel(run: TaskRun, visit index: Int, why: [String], skipped: [String], context: AnswerContext) -> String {
        var answers: [[String: Any]] = []
        for (position, visit) in run.visits.enumerated() where position < index {
            guard let step = navigator.step(of: visit), !step.questions.isEmpty else { continue }
            let words = step.questions.map { question -> String in
                let answer = visit.result(question.identifier).flatMap {
                    display($0.answer, format: question.answerFormat, language: "en", context: context)
                } ?? Catalog(language: "en")["notProvided"]
                return step.questions.count > 1 ? "\(question.identifier): \(answer)" : answer
            }
            var row: [String: Any] = ["step": step.identifier, "answer": words.joined(separator: "; ")]
            if run.isFinished || position < run.cursor { row["changeURL"] = Presentation.preview.base(task.identifier) + "/change/\(position)" }
            answers.append(row)
        }
        let result = navigator.result(of: run, now: context.now).json(in: navigator.timeZone)
        let values: [String: Any] = [
            "pw": PreviewChrome.words, "survey": task.identifier, "why": why, "skipped": skipped, "hasSkipped": !skipped.isEmpty,
            "answers": answers, "hasAnswers": !answers.isEmpty, "result": JSONWriter.string(result),
        ]
        return library.render(values, withTemplate: "preview-panel") ?? ""
    }

    /// A page of the preview about this survey (its map, a message), from the `page` layout.
    public func renderPreviewPage(_ kind: String, title: String, values: [String: Any]) -> String {
        var all = values
        all["switcher"] = false
        return renderPage(kind, language: languages[0], title: title, values: all, presentation: .preview)
    }
}
