import Foundation
import SurveyCore

/// How one answer format is shown: its controls on a step page (beside its template,
/// `Templates/format-{type}.mustache`) and its answer in words on the review and answers
/// pages. Each format's file in this folder implements it; the core's side of the format is
/// in `SurveyCore/Formats/`.
protocol FormatView {
    /// Adds the format's controls to the Mustache context of `question`.
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel)
    /// The answer in words.
    func display(_ answer: Answer, _ words: AnswerWords) -> String
}

extension FormatView {
    func display(_ answer: Answer, _ words: AnswerWords) -> String { words.plain(answer) }
}

extension AnswerFormat {
    /// The format's view.
    var view: any FormatView {
        switch self {
        case .boolean(let format): return format
        case .textChoice(let format): return format
        case .valuePicker(let format): return format
        case .multipleValuePicker(let format): return format
        case .imageChoice(let format): return format
        case .scale(let format): return format
        case .continuousScale(let format): return format
        case .textScale(let format): return format
        case .numeric(let format): return format
        case .timeOfDay(let format): return format
        case .date(let format): return format
        case .timeInterval(let format): return format
        case .text(let format): return format
        case .email(let format): return format
        case .height(let format): return format
        case .weight(let format): return format
        case .age(let format): return format
        case .location(let format): return format
        case .ses(let format): return format
        }
    }
}

/// What an answer in words needs: the page's words, the survey's texts in the page's
/// language, and the zone answers were read in.
struct AnswerWords {
    let catalog: Catalog
    let texts: RichTextCache
    let language: String
    let fallback: [String]
    let timeZone: TimeZone

    func plain(_ text: LocalizedText?) -> String? {
        texts.plain(text, language: language, fallback: fallback)
    }

    /// The label of a chosen value, or the value itself (an "other" text).
    func choiceLabel(_ value: ChoiceValue, in choices: [TextChoice]) -> String {
        choices.first { $0.value == value }.flatMap { plain($0.text) } ?? value.formValue
    }

    /// An answer as its kind reads without its format's help.
    func plain(_ answer: Answer) -> String {
        switch answer {
        case .dontKnow: return catalog["dontKnow"]
        case .boolean(let flag): return catalog[flag ? "yes" : "no"]
        case .choices(let values): return values.map(\.formValue).joined(separator: ", ")
        case .components(let values): return values.map(\.formValue).joined(separator: " ")
        case .scale(let value), .numeric(let value): return catalog.number(value)
        case .timeOfDay(let time): return time.description
        case .date(.day(let day)): return catalog.day(day)
        case .date(.instant(let instant)): return catalog.moment(instant, timeZone)
        case .timeInterval(let seconds):
            let minutes = Int(seconds / 60)
            return catalog.fill("duration", String(minutes / 60), String(minutes % 60))
        case .text(let text): return text
        case .location(let location): return location.userInput
        case .ses(let rung): return catalog.format("rung", rung)
        }
    }
}
