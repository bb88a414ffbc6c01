import Foundation
import SurveyCore

/// SPSS syntax that reads the wide CSV exported with missing codes.
struct SPSSSyntax {
    let task: SurveyTask
    let codebook: Codebook

    var text: String { "* SPSS syntax for \(task.identifier).\n" }
}
