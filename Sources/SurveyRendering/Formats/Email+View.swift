import Foundation
import SurveyCore

extension EmailFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["input"] = question.input(type: "email", autocomplete: "email", spellcheck: false, width: "width-30",
                                          describedIDs: question.describedIDs)
    }
}
