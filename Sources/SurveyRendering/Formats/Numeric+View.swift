import Foundation
import SurveyCore

extension NumericFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let mode = effectiveStyle == .integer && (minimum ?? 0) >= 0 ? "numeric" : "decimal"
        context["input"] = question.input(inputMode: mode, suffix: shownUnit, width: "width-5", describedIDs: question.describedIDs)
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .numeric(let value) = answer else { return words.plain(answer) }
        return words.catalog.number(value) + (shownUnit.map { " " + $0 } ?? "")
    }
}
