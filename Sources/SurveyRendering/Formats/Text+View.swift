import Foundation
import SurveyCore

extension TextFormat: FormatView {
    func addControls(to context: inout [String: Any], _ question: QuestionViewModel) {
        let name = question.name
        let slots = question.slots
        let describedIDs = question.describedIDs + (lengthLimit != nil ? ["\(name):count"] : [])
        if multipleLines == true {
            var textarea: [String: Any] = [
                "id": PageIDs.field(name), "name": name, "text": slots.marker(.text(name)),
                "inputError": slots.marker(.inputError(field: name)), "invalid": slots.marker(.invalid(field: name)),
                "describedBy": slots.marker(.describedBy(question: name, ids: describedIDs)),
            ]
            if let limit = lengthLimit { textarea["maxlength"] = String(limit) }
            context["textarea"] = textarea
        } else {
            context["input"] = question.input(spellcheck: true, maxLength: lengthLimit, describedIDs: describedIDs)
        }
        if let limit = lengthLimit {
            context["characterLimit"] = question.catalog.format("characterLimit", limit)
            context["countID"] = "\(name):count"
        }
    }
}
