import Foundation
import JSON

extension QuestionnaireImport {
    /// The item types that ask a question this presenter can show.
    static let questionTypes: Set<String> = [
        "boolean", "decimal", "integer", "quantity", "date", "dateTime", "time", "string", "text", "url", "choice", "open-choice",
    ]

    /// The item types whose answer is one of a list of options.
    static let choiceTypes: Set<String> = ["choice", "open-choice"]

    /// One Questionnaire item read on its own, before the conditions that name other items
    /// are resolved (those may sit anywhere in the tree, before or after it).
    final class Item {
        let object: JSONObject
        let path: JSONPath
        let linkId: String
        /// The Questionnaire item type: `group`, `display`, `boolean`, `choice`…
        let type: String
        /// The item's place in document order (a group comes before its children).
        let order: Int
        /// The step or form item identifier made from the linkId.
        let identifier: String
        /// How a predicate names this question's result: "stepId" or "stepId.itemId"; nil for groups and displays.
        let selector: String?
        let extensions: Extensions
        /// `questionnaire-hidden` is true.
        var hidden = false
        var children: [Item] = []
        /// A top-level group that `repeats`: the fewest and most copies (minOccurs, maxOccurs).
        var repeatLimits: (minimum: Int, maximum: Int)?
        /// A group whose itemControl asks for a table of questions by answers (`table`, `htable`, `gtable`).
        var asksForGrid = false
        /// A question's survey keys other than its text and condition: `optional`, `answerFormat`, `initial`…
        var question = JSONObject()
        /// The item's `text` and `prefix`, with their translations.
        var text: QuestionnaireImport.Phrase?
        var prefix: QuestionnaireImport.Phrase?
        /// Text shown under the question (from `entryFormat`).
        var hint: QuestionnaireImport.Phrase?
        /// The texts of the display items under a question, shown under it after the hint.
        var textsUnder: [QuestionnaireImport.Phrase] = []
        /// What is shown under the question: its hint, then the texts under it.
        var detail: QuestionnaireImport.Phrase? {
            .joined([hint].compactMap { $0 } + textsUnder, separator: " ")
        }
        /// A choice question's options, kept for matching codings in conditions and initial values.
        var choices: [Choice] = []
        /// The `variable` extensions, as survey `variables` entries.
        var variables: [JSONValue] = []
        /// Where the item's expressions sit in the Questionnaire, by the survey key they become
        /// (`calculatedExpression`, `initialExpression`, and `expression` for enableWhenExpression).
        var expressionPaths: [String: JSONPath] = [:]

        init(object: JSONObject, path: JSONPath, linkId: String, type: String, order: Int, identifier: String, selector: String?) {
            self.object = object
            self.path = path
            self.linkId = linkId
            self.type = type
            self.order = order
            self.identifier = identifier
            self.selector = selector
            extensions = Extensions(object["extension"], at: path / "extension")
        }

        var isQuestion: Bool { selector != nil }
        var isChoice: Bool { QuestionnaireImport.choiceTypes.contains(type) }

        /// The item's `text` with its `prefix` before it ("1. Little interest").
        var shownText: QuestionnaireImport.Phrase? {
            .joined([prefix, text].compactMap { $0 }, separator: " ")
        }

        /// A boolean key, false when absent.
        func flag(_ key: String) -> Bool { object[key] == .bool(true) }
    }

    /// One option of a choice question, as the survey's TextChoice and as the coding it came from.
    struct Choice {
        /// The recorded value: the code, the string, the integer or the date.
        let value: JSONValue
        /// The TextChoice: `text`, `value`, `fhir`, `extension`.
        let json: JSONObject
        let system: String?
        let code: String?
        let path: JSONPath
        /// `initialSelected` is true.
        let initiallySelected: Bool

        /// True when a FHIR Coding names this option: the same code, and the same system when both give one.
        func matches(_ coding: JSONObject) -> Bool {
            guard let code, case .string(code)? = coding["code"] else { return false }
            if let system, case .string(let other)? = coding["system"] { return system == other }
            return true
        }
    }
}
