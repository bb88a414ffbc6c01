import Foundation
import SurveyCore

extension WeightFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let system = question.measurement(measurementSystem)
        if system == .USC, numericPrecision == .high {
            context["parts"] = [question.part("pounds", question.catalog["pounds"], width: "width-3", inputMode: "numeric"),
                                question.part("ounces", question.catalog["ounces"], width: "width-2", inputMode: "numeric")]
            context["group"] = true
        } else {
            context["input"] = question.input(inputMode: "decimal", suffix: system == .USC ? "lb" : "kg", width: "width-4",
                                              describedIDs: question.describedIDs)
        }
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .numeric(let value) = answer else { return words.plain(answer) }
        return words.catalog.number(value) + " kg"
    }
}
