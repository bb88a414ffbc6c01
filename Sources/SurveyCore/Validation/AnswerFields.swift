import Foundation
import JSON

/// The names of the form fields each answer format uses, shared by the parser and the pages.
public enum AnswerFields {
    public static func dontKnow(_ name: String) -> String { name + ".dontKnow" }

    /// The text field of an "other" choice: `{item}.other`, or `{item}.other.{index}` when a
    /// format has several.
    public static func other(_ name: String, choiceIndex: Int, in choices: [TextChoice]) -> String {
        choices.filter { $0.other != nil }.count > 1 ? "\(name).other.\(choiceIndex)" : "\(name).other"
    }

    public static func picker(_ name: String, _ index: Int) -> String { "\(name).\(index)" }
}
