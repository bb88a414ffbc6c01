import Foundation
import SurveyCore

extension DateFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let catalog = question.catalog
        var parts = [
            question.part("day", catalog["day"], width: "width-2", inputMode: "numeric"),
            question.part("month", catalog["month"], width: "width-2", inputMode: "numeric"),
            question.part("year", catalog["year"], width: "width-4", inputMode: "numeric"),
        ]
        if effectiveStyle == .dateAndTime {
            parts.append(question.part("time", catalog["time"], width: "width-5", inputMode: nil, type: "time"))
        }
        context["parts"] = parts
        context["dateHint"] = catalog["dateHint"]
        context["group"] = true
    }
}
