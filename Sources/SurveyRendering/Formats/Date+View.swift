import Foundation
import SurveyCore

extension DateFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let catalog = question.catalog
        // The boxes in the order the page's language writes a date; their names stay the same.
        var parts = catalog.datePartOrder.map { part in
            question.part(part.rawValue, catalog[part.rawValue], width: part == .year ? "width-4" : "width-2", inputMode: "numeric")
        }
        if effectiveStyle == .dateAndTime {
            parts.append(question.part("time", catalog["time"], width: "width-5", inputMode: nil, type: "time"))
        }
        context["parts"] = parts
        context["dateHint"] = catalog.fill("dateHint", catalog.dateExample)
        context["group"] = true
    }
}
