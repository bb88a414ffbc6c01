import Foundation
import SurveyCore

extension LocationFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["input"] = question.input(describedIDs: question.describedIDs)
    }
}
