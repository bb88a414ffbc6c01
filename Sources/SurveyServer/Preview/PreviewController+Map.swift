import Foundation
import Hummingbird
import JSON
import SurveyAnalysis
import SurveyCore
import SurveyRendering

/// The map of a survey, and jumps to any step of it.
extension PreviewController {
    /// Every step in order with its questions and formats, every rule in words, the steps no
    /// answers can reach (and why), and for the others the conditions their path needs: "only
    /// if" where one sequence of moves leads there, "for example if" where several do, and no
    /// line where every run shows the step. The paths are worked out off the request's thread
    /// within `PathBudget.page`; when that runs out, the steps not checked say so.
    func map(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        guard let pages = try await previewed(context) else { return redirect("/preview") }
        let entry = await library.entry(pages.task.identifier)
        let paths = await library.pathMap(of: pages)
        let explanation = PreviewExplanation(pages: pages)
        let steps = pages.task.steps.map { step -> [String: Any] in
            var row = explanation.mapRow(step)
            row["survey"] = pages.task.identifier
            switch paths.entries[step.identifier] {
            case let found?:
                switch found.reach {
                case .unreachable(let reason):
                    row["unreachable"] = true
                    row["reason"] = explanation.unreachable(reason)
                case .reachable(let witness):
                    guard !found.alwaysShown, let condition = explanation.condition(witness) else { break }
                    row["condition"] = condition
                    row["conditionLead"] = PreviewChrome[found.severalWaysIn ? "forExample" : "onlyIf"]
                }
            default:
                if paths.stoppedEarly { row["unchecked"] = true }
            }
            return row
        }
        let unreachable = Set(steps.compactMap { row in row["unreachable"] != nil ? row["identifier"] as? String : nil })
        var values: [String: Any] = ["steps": steps, "file": entry?.file ?? "", "diagram": explanation.diagram(unreachable: unreachable)]
        if let first = paths.firstUnchecked {
            values["stopped"] = PreviewChrome.sentence("mapStopped", String(paths.checked), String(pages.task.steps.count),
                                                       Self.seconds(library.budget), first)
        }
        let body = pages.renderPreviewPage("previewMap", title: PreviewChrome["map"], values: values)
        return html(body, visitor: nil)
    }

    /// A jump: answers that lead to the step, walked by the engine into a preview run that
    /// stands at the step; or, where none can, a page that says why.
    func jump(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        guard let pages = try await previewed(context) else { return redirect("/preview") }
        guard let target = context.parameters.get("step"), pages.task.step(target) != nil else {
            throw PageError(.notFound, "errorNotFoundText")
        }
        let explanation = PreviewExplanation(pages: pages)
        switch await library.reach(target, of: pages) {
        case nil:
            let body = pages.renderPreviewPage("message", title: PreviewChrome["searchStoppedTitle"], values: [
                "heading": PreviewChrome["searchStoppedTitle"],
                "text": PreviewChrome.sentence("searchStopped", Self.seconds(library.budget)),
            ])
            return html(body, visitor: nil)
        case .unreachable(let reason):
            let body = pages.renderPreviewPage("message", title: PreviewChrome["cannotReach"], values: [
                "heading": PreviewChrome["cannotReach"], "text": explanation.unreachable(reason),
            ])
            return html(body, status: .unprocessableContent, visitor: nil)
        case .reachable(let witness):
            var script = JSONObject()
            for (step, value) in witness.answers { script[step] = value }
            guard case .arrived(let run) = pages.navigator.walk(script, to: target, language: pages.languages[0], from: clock(),
                                                                         parameters: pages.task.exampleParameters) else {
                throw HTTPError(.internalServerError)
            }
            var visitor = visitor(request, context, pages: pages)
            visitor.presentation = .preview
            try await runs.place(run, of: pages.survey, session: visitor.session, now: clock())
            return redirect(visitor.base(pages) + (run.isFinished ? "/done" : ""), visitor: visitor)
        }
    }

    /// The deadline of a budget in whole seconds, for a sentence.
    static func seconds(_ budget: PathBudget) -> String {
        budget.time.map { String($0.components.seconds) } ?? "—"
    }
}
