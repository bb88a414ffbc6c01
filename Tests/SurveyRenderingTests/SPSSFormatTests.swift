import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("SPSS formats show every decimal a stored answer has")
struct SPSSFormatTests {
    static func spss(_ json: String) throws -> String {
        let task = try SurveyLoader.load(Data(json.utf8)).task
        return SPSSSyntax(task: task, codebook: Codebook(task: task)).text
    }

    @Test("A percent scale stores a fraction, so it shows two decimals more than the participant types")
    func percentScale() throws {
        let text = try Self.spss("""
            {"identifier": "share", "steps": [
              {"identifier": "whole", "type": "question", "answerFormat": {"type": "continuousScale",
               "minimum": 0, "maximum": 1, "maximumFractionDigits": 0, "numberStyle": "percent"}},
              {"identifier": "tenths", "type": "question", "answerFormat": {"type": "continuousScale",
               "minimum": 0, "maximum": 1, "maximumFractionDigits": 1, "numberStyle": "percent"}},
              {"identifier": "plain", "type": "question", "answerFormat": {"type": "continuousScale",
               "minimum": 0, "maximum": 10, "maximumFractionDigits": 1}}
            ]}
            """)
        // 60 % is 0.6 and 62.5 % is 0.625 in the CSV; F12.0 would show both as 1.
        #expect(text.contains("    whole F12.2\n"))
        #expect(text.contains("    tenths F12.3\n"))
        #expect(text.contains("    plain F12.1."))
    }
}
