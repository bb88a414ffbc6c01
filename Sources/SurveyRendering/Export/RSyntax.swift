import Foundation
import SurveyCore

/// Base R that reads the wide CSV exported with missing codes.
struct RSyntax {
    let task: SurveyTask
    let codebook: Codebook

    var text: String { "# R syntax for \(task.identifier)\n" }
}
