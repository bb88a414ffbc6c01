import Foundation
import JSON

extension AnswerFields {
    /// The form fields that would give back `answer`: what a page shows for a saved answer.
    public static func fields(for answer: Answer, format: AnswerFormat, name: String, context: AnswerContext) -> [(String, String)] {
        if answer == .dontKnow { return [(dontKnow(name), "1")] }
        return format.rules.fields(for: answer, name: name, context: context)
    }

    /// The fields of an answer as the plain controls of its kind show it; formats with
    /// other controls (feet and inches, a percent, a birth year) write their own.
    static func plainFields(for answer: Answer, name: String, context: AnswerContext) -> [(String, String)] {
        switch answer {
        case .dontKnow:
            return [(dontKnow(name), "1")]
        case .boolean(let flag):
            return [(name, flag ? "true" : "false")]
        case .choices(let values):
            return values.map { (name, $0.formValue) }
        case .components(let values):
            return values.enumerated().map { (picker(name, $0.offset), $0.element.formValue) }
        case .scale(let value), .numeric(let value):
            return [(name, JSONWriter.number(value))]
        case .timeOfDay(let time):
            return [(name, time.description)]
        case .date(let date):
            return DateFormat.dateFields(date, name: name, context: context)
        case .timeInterval(let seconds):
            return TimeIntervalFormat.intervalFields(Int(seconds / 60), name: name)
        case .text(let text):
            return [(name, text)]
        case .location(let location):
            var fields = [(name, location.userInput)]
            if let latitude = location.latitude, let longitude = location.longitude {
                fields += [(name + ".latitude", JSONWriter.number(latitude)), (name + ".longitude", JSONWriter.number(longitude))]
            }
            return fields
        case .ses(let rung):
            return [(name, String(rung))]
        }
    }

    /// The fields a format shows before any answer: its default, where typing it is harmless.
    /// Radios are never chosen in advance (GOV.UK), so scale defaults show no choice.
    public static func defaults(for format: AnswerFormat, name: String) -> [(String, String)] {
        format.rules.defaultFields(name: name)
    }
}
