import Foundation
import SurveyCore

/// The property every answer format keeps: an answer, shown again in its fields (as Back and
/// Change do), reads back as the same answer, so going back and on never changes what was said.
enum AnswerRoundTrip {
    static func check(_ format: AnswerFormat, name: String, fields: FormFields, context: AnswerContext) throws(FuzzFailure) {
        guard case .answer(let answer) = AnswerParser.parse(format, name: name, fields: fields, context: context) else { return }
        let shown = FormFields(pairs: AnswerFields.fields(for: answer, format: format, name: name, context: context))
        let again = AnswerParser.parse(format, name: name, fields: shown, context: context)
        guard again == .answer(answer) else {
            throw FuzzFailure("\(name): \(answer) was shown as \(shown.values) and read back as \(again)")
        }
    }
}
