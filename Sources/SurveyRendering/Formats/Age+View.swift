import Foundation
import SurveyCore

extension AgeFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["input"] = question.input(inputMode: "numeric", width: "width-3", describedIDs: question.describedIDs)
    }
}
