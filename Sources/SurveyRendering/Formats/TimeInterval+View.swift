import Foundation
import SurveyCore

extension TimeIntervalFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["parts"] = [question.part("hours", question.catalog["hours"], width: "width-2", inputMode: "numeric"),
                            question.part("minutes", question.catalog["minutes"], width: "width-2", inputMode: "numeric")]
        context["group"] = true
    }
}
