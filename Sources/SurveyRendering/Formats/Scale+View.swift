import Foundation
import SurveyCore

extension ScaleFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["options"] = values.enumerated().map { index, value in
            question.option(index: index, value: String(value), label: String(value))
        }
        context["minimumDescription"] = question.html(minimumValueDescription) ?? ""
        context["maximumDescription"] = question.html(maximumValueDescription) ?? ""
        context["hasDescriptions"] = minimumValueDescription != nil || maximumValueDescription != nil
        context["vertical"] = vertical ?? false
        context["single"] = true
    }
}
