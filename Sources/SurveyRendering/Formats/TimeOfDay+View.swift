import Foundation
import SurveyCore

extension TimeOfDayFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["input"] = question.input(type: "time", width: "width-5", describedIDs: question.describedIDs)
        context["timeHint"] = question.catalog["timeHint"]
    }
}
