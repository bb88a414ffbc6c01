import Foundation
import Hummingbird
import SurveyCore
import SurveyRendering

/// The map of a survey, and jumps to any step of it.
extension PreviewController {
    /// Every step in order with its questions and formats, every rule in words, the steps no
    /// answers can reach (and why), and for the others the conditions their path needs: "only
    /// if" where one sequence of moves leads there, "for example if" where several do, and no
    /// line where every run shows the step.
    func map(_ request: Request, _ context: SurveyRequestContext) async throws -> Response {
        guard let pages = try await previewed(context) else { return redirect("/preview") }
        let entry = await library.entry(pages.task.identifier)
        let reach = PathFinder(task: pages.task, timeZone: pages.navigator.timeZone).reachability()
        let explanation = PreviewExplanation(pages: pages)
        let graph = RuleGraph(task: pages.task)
        let alwaysShown = graph.alwaysShown(in: pages.task)
        let steps = pages.task.steps.map { step -> [String: Any] in
            var row = explanation.mapRow(step)
            row["survey"] = pages.task.identifier
            switch reach[step.identifier] {
            case .unreachable(let reason)?:
                row["unreachable"] = true
                row["reason"] = explanation.unreachable(reason)
            case .reachable(let witness)?:
                guard !alwaysShown.contains(step.identifier), let condition = explanation.condition(witness) else { break }
                row["condition"] = condition
                row["conditionLead"] = PreviewChrome[graph.hasSeveralWaysIn(to: step.identifier, in: pages.task) ? "forExample" : "onlyIf"]
            case nil:
                break
            }
            return row
        }
        let body = pages.renderPreviewPage("previewMap", title: PreviewChrome["map"], values: [
            "steps": steps, "file": entry?.file ?? "",
        ])
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
        switch PathFinder(task: pages.task, timeZone: pages.navigator.timeZone).reach(target) {
        case .unreachable(let reason):
            let body = pages.renderPreviewPage("message", title: PreviewChrome["cannotReach"], values: [
                "heading": PreviewChrome["cannotReach"], "text": explanation.unreachable(reason),
            ])
            return html(body, status: .unprocessableContent, visitor: nil)
        case .reachable(let witness):
            var script = JSONObject()
            for (step, value) in witness.answers { script[step] = value }
            guard case .arrived(let run) = pages.navigator.walk(script, to: target, language: pages.languages[0], from: clock()) else {
                throw HTTPError(.internalServerError)
            }
            var visitor = visitor(request, context, pages: pages)
            visitor.presentation = .preview
            try await runs.place(run, of: pages, session: visitor.session, now: clock())
            return redirect(visitor.base(pages) + (run.isFinished ? "/done" : ""), visitor: visitor)
        }
    }
}
