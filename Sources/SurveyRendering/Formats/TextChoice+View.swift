import Foundation
import SurveyCore

extension TextChoiceFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["options"] = question.textOptions(choices, exclusiveDivider: style == .multipleChoice, shuffled: shuffle == true)
        context[style == .multipleChoice ? "multiple" : "single"] = true
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .choices(let values) = answer else { return words.plain(answer) }
        return values.map { words.choiceLabel($0, in: choices) }.joined(separator: ", ")
    }
}
