import Foundation
import SurveyCore

extension BooleanFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let options = [("true", question.html(yes) ?? question.catalog["yes"]), ("false", question.html(no) ?? question.catalog["no"])]
        context["options"] = options.enumerated().map { index, option in
            question.option(index: index, value: option.0, label: option.1)
        }
        context["inline"] = true
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .boolean(let flag) = answer else { return words.plain(answer) }
        return words.plain(flag ? yes : no) ?? words.catalog[flag ? "yes" : "no"]
    }
}
