import Foundation
import SurveyCore

extension MultipleValuePickerFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["selects"] = pickers.enumerated().map { index, choices in
            let field = AnswerFields.picker(question.name, index)
            return question.select(name: field, id: field, label: "\(index + 1)", choices: choices)
        }
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .components(let values) = answer else { return words.plain(answer) }
        return zip(values, pickers).map { words.choiceLabel($0, in: $1) }.joined(separator: effectiveSeparator)
    }
}
