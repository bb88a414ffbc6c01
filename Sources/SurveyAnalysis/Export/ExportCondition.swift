import Foundation
import JSON
import SurveyCore

/// When a step or item is shown, worded as the survey file writes its rules: for the codebook.
extension ExportLayout {
    /// "always", or the moves that lead to the step with their conditions, its skip rule, and
    /// an item's `visibleIf`, each predicate as the survey file writes it.
    public static func shownWhen(step: String, visibleIf: SurveyCore.Predicate?, in task: SurveyTask, graph: RuleGraph,
                                 alwaysShown: Set<String>) -> String {
        var parts: [String] = []
        if !alwaysShown.contains(step) {
            let ways = graph.edges.filter { $0.to == .step(step) }.map { edge -> String in
                edge.condition.map { "after \(edge.from) if \(JSONWriter.string($0.json, pretty: false))" } ?? "after \(edge.from)"
            }
            if task.steps.first?.identifier == step { parts.append("first step") }
            if !ways.isEmpty { parts.append(ways.joined(separator: " or ")) }
            if let skip = graph.skipRules[step] { parts.append("unless \(JSONWriter.string(skip.json, pretty: false))") }
        }
        if let visibleIf { parts.append("item shown if \(JSONWriter.string(visibleIf.json, pretty: false))") }
        return parts.isEmpty ? "always" : parts.joined(separator: "; ")
    }
}
