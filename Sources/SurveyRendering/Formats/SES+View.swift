import Foundation
import SurveyCore

extension SESFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let catalog = question.catalog
        context["options"] = (1...Self.rungCount).reversed().enumerated().map { index, rung -> [String: Any] in
            var label = catalog.format("rung", rung)
            if rung == Self.rungCount { label += " – " + (question.html(topRungText) ?? catalog["topRung"]) }
            if rung == 1 { label += " – " + (question.html(bottomRungText) ?? catalog["bottomRung"]) }
            return question.option(index: index, value: String(rung), label: label)
        }
        context["single"] = true
    }
}
