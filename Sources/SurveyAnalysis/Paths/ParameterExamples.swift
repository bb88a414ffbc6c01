import Foundation
import SurveyCore

extension SurveyTask {
    /// Values the preview starts a run with, so piped parameters show something: for each
    /// parameter, the plainest string its pattern takes, else `example`.
    public var exampleParameters: [String: String] {
        var values: [String: String] = [:]
        for parameter in parameters {
            let candidates = parameter.pattern.map { RegexExamples.examples(of: $0) } ?? []
            values[parameter.name] = (candidates + ["example"]).first { !$0.isEmpty && parameter.fault(in: $0) == nil } ?? ""
        }
        return values
    }
}
