import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// The path finder reads `answered` and `compare` as the navigator does, a missing result included.
@Suite("enableWhen in the path finder")
struct EnableWhenPathTests {
    /// `c` is skipped when `b != true`, which holds when `b` was never shown: `a` must be true,
    /// then `b` true, for `c` to show.
    static let survey = """
        {"identifier": "t", "steps": [
          {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}},
          {"identifier": "c", "type": "instruction", "title": "c"}],
         "skipRules": {"b": {"result": "a", "compare": "!=", "value": true}, "c": {"result": "b", "compare": "!=", "value": true}}}
        """

    @Test("A step behind != on a step that may be skipped needs that step shown and answered")
    func notEqualOnAMissingResult() throws {
        let task = try loadSurvey(Self.survey)
        let witness = try #require(finder(task).reach("c").witness)
        #expect(witness.path == ["a", "b", "c"])
        var walker = Walker(task)
        for (_, value) in witness.answers {
            walker.next(FormFields(json: value).values.compactMapValues(\.first))
        }
        #expect(walker.pathIdentifiers == ["a", "b", "c"], "the witness's answers do lead there")
    }

    @Test("answered false holds on a step that was never shown")
    func notAnsweredOnAMissingResult() throws {
        let task = try loadSurvey("""
            {"identifier": "t", "steps": [
              {"identifier": "a", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "c", "type": "instruction", "title": "c"}],
             "skipRules": {"b": {"result": "a", "equals": true}, "c": {"result": "b", "answered": true}}}
            """)
        let witness = try #require(finder(task).reach("c").witness)
        #expect(witness.path.contains("c"))
        #expect(finder(task).reach("b").witness != nil)
    }
}
