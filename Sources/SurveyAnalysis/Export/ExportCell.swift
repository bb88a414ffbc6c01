import Foundation
import JSON
import SurveyCore

/// A cell of the wide export: a value, or why there is none (written empty).
public enum ExportCell: Sendable, Hashable {
    case value(String)
    case missing(MissingReason)
}
