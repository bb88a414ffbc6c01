import Foundation
import SurveyCore

/// The ids a page gives its parts. Identifiers never hold ":", so these cannot clash with a field.
public enum PageIDs {
    public static func field(_ name: String) -> String { name }
    /// A form section, by the position of its header in the form.
    public static func section(_ position: Int) -> String { "section:\(position)" }
    /// A form note's item, by its position in the form.
    public static func note(_ position: Int) -> String { "note:\(position)" }
    /// The words a read-only question shows; a name no control posts.
    public static func shown(_ name: String) -> String { "\(name):shown" }
    public static func option(_ name: String, _ index: Int) -> String { index == 0 ? name : "\(name):\(index + 1)" }
    /// The progress label of a step whose place depends on the run.
    public static let progress = "_progress:shown"
    /// A repeating form's instance: its name in the heading ("Medication 2"), and the hidden field with its index.
    public static let instanceCaption = "_instance:shown"
    public static let instanceField = "_instance"
    public static func hint(_ name: String) -> String { "\(name):hint" }
    public static func error(_ name: String) -> String { "\(name):error" }
    public static func optionHint(_ name: String, _ index: Int) -> String { "\(name):\(index + 1):hint" }
}
