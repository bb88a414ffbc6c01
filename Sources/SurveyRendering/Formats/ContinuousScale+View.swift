import Foundation
import SurveyCore

extension ContinuousScaleFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let unit = isPercent ? "%" : nil
        context["input"] = question.input(inputMode: fractionDigits > 0 ? "decimal" : "numeric", suffix: unit, width: "width-5",
                                          describedIDs: question.describedIDs)
        if let low = question.html(minimumValueDescription) { context["minimumDescription"] = low }
        if let high = question.html(maximumValueDescription) { context["maximumDescription"] = high }
        let factor = isPercent ? 100.0 : 1.0
        context["range"] = "\(question.catalog.number(minimum * factor))–\(question.catalog.number(maximum * factor))\(unit ?? "")"
    }

    func display(_ answer: Answer, _ words: AnswerWords) -> String {
        guard case .scale(let value) = answer, isPercent else { return words.plain(answer) }
        return words.catalog.number(shown(value)) + "%"
    }
}
