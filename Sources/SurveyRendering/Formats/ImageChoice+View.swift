import Foundation
import SurveyCore

extension ImageChoiceFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["options"] = choices.enumerated().map { index, choice -> [String: Any] in
            var option = question.option(index: index, value: choice.value.formValue, label: question.html(choice.text) ?? "")
            option["image"] = "/" + choice.image.drop { $0 == "/" }
            option["alt"] = question.plain(choice.imageAlt) ?? ""
            option["hasText"] = choice.text != nil
            return option
        }
        context[effectiveStyle == .multipleChoice ? "multiple" : "single"] = true
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .choices(let values) = answer else { return words.plain(answer) }
        return values.map { words.choiceLabel($0, in: choices.map(\.asTextChoice)) }.joined(separator: ", ")
    }
}
