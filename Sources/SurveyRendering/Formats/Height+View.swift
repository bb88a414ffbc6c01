import Foundation
import SurveyCore

extension HeightFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        if question.measurement(measurementSystem) == .USC {
            context["parts"] = [question.part("feet", question.catalog["feet"], width: "width-2", inputMode: "numeric"),
                                question.part("inches", question.catalog["inches"], width: "width-2", inputMode: "decimal")]
            context["group"] = true
        } else {
            context["input"] = question.input(inputMode: "decimal", suffix: "cm", width: "width-4", describedIDs: question.describedIDs)
        }
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .numeric(let value) = answer else { return words.plain(answer) }
        return words.catalog.number(value) + " cm"
    }
}
