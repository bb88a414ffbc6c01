import Foundation
import SurveyCore

extension ValuePickerFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        context["select"] = question.select(name: question.name, id: PageIDs.field(question.name), label: nil, choices: choices)
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .choices(let values) = answer else { return words.plain(answer) }
        return values.map { words.choiceLabel($0, in: choices) }.joined(separator: ", ")
    }
}
