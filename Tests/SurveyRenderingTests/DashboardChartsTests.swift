import Foundation
import SurveyAnalysis
import SurveyCore
import SurveyRendering
import SurveyTestSupport
import Testing

/// The dashboard's charts: every word escaped, every picture a well-formed SVG with its title,
/// the table and CSV saying the same figures, and a spreadsheet's formulas guarded.
@Suite("The dashboard's charts")
struct DashboardChartsTests {
    static let survey = """
        {"identifier": "d", "title": "Dash <&>", "steps": [
          {"type": "question", "identifier": "pick", "title": "Pick <b>one</b> & go", "answerFormat": {"type": "textChoice",
           "style": "singleChoice", "choices": [{"text": "1 < 2 & 3 > 2", "value": "x"}, {"text": "=HYPERLINK(\\"e\\")", "value": "y"}]}},
          {"type": "question", "identifier": "born", "title": "Born", "answerFormat": {"type": "date"}},
          {"type": "question", "identifier": "note", "title": "Note", "answerFormat": {"type": "text"}},
          {"type": "completion", "identifier": "end", "title": "Thanks"}]}
        """

    static func charts() async throws -> DashboardCharts {
        let task = try loadSurvey(Self.survey)
        let pages = try SurveyPages(task: task, library: try await Files.library(), timeZone: utc)
        let tally = DashboardTally(
            days: [.init(day: 20_400, status: "completed", count: 3), .init(day: 20_402, status: "saved", count: 1)],
            steps: [.init(step: "pick", stopped: false, status: "completed", seconds: 4, count: 3),
                    .init(step: "pick", stopped: true, status: "saved", seconds: nil, count: 1)],
            outcomes: [.init(key: "pick", outcome: AnswerFact.answered, bucket: "x", count: 2),
                       .init(key: "pick", outcome: AnswerFact.answered, bucket: "y", count: 1),
                       .init(key: "pick", outcome: MissingReason.notReached.rawValue, bucket: nil, count: 1),
                       .init(key: "born", outcome: AnswerFact.answered, bucket: nil, count: 3, minimum: 3_000, maximum: 3_020),
                       .init(key: "note", outcome: AnswerFact.answered, bucket: nil, count: 2)])
        let bins = DashboardReport.bins(for: tally, questions: DashboardQuestion.all(in: task))
        let report = DashboardReport(task: task, tally: tally, bins: bins, histograms: ["born": [0: 2, 2: 1]])
        return DashboardCharts(report: report, pages: pages)
    }

    /// Every tag closed in the order opened, every attribute value quoted, no stray `<` or `&`
    /// (the browser tests parse the downloads with a real XML parser too).
    static func balanced(_ svg: String) -> Bool {
        var stack: [String] = []
        let body = svg.replacingOccurrences(of: #"^<\?xml[^>]*\?>\s*"#, with: "", options: .regularExpression)
        let tag = try! Regex(#"<(/?)([a-zA-Z]+)((?:\s+[a-zA-Z0-9:-]+="[^"<]*")*)\s*(/?)>"#)
        var rest = Substring(body)
        while let match = rest.firstMatch(of: tag) {
            let text = rest[..<match.range.lowerBound]
            if text.contains("<") || text.replacingOccurrences(of: #"&(amp|lt|gt|quot|#39);"#, with: "", options: .regularExpression).contains("&") {
                return false
            }
            let name = String(match.output[2].substring!)
            if match.output[1].substring == "/" {
                guard stack.popLast() == name else { return false }
            } else if match.output[4].substring != "/" {
                stack.append(name)
            }
            rest = rest[match.range.upperBound...]
        }
        return stack.isEmpty && !rest.contains("<")
    }

    @Test("Every picture is well-formed SVG with its title, and no word reaches it unescaped")
    func wellFormed() async throws {
        let charts = try await Self.charts()
        #expect(charts.charts.map(\.file) == ["runs", "funnel", "times", "questions/pick", "questions/born", "questions/note"])
        for chart in charts.charts {
            guard let file = chart.svgFile else {
                #expect(chart.file == "questions/note", "only the text question has no picture")
                continue
            }
            #expect(Self.balanced(file), "\(chart.file): every element closed, in order")
            #expect(chart.svg!.contains("<title id=\"\(chart.id)-title\">"))
            #expect(!file.contains("<script") && !file.contains("<b>"))
        }
        let pick = try #require(charts.chart(file: "questions/pick"))
        #expect(pick.title == "pick: Pick one & go")
        #expect(pick.svg!.contains(">1 &lt; 2 &amp; 3 &gt; 2 (x)</text>"))
        #expect(pick.rows.prefix(2).map { $0[1] } == ["2", "1"] && pick.rows[0][2] == "67%")
    }

    @Test("The CSV says what the table says, with a spreadsheet's formulas guarded")
    func csvMatchesTable() async throws {
        let pick = try #require(try await Self.charts().chart(file: "questions/pick"))
        let lines = pick.csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == pick.rows.count + 1)
        #expect(lines[0] == "Answer,Count,Share")
        #expect(lines[2].hasPrefix("\"'=HYPERLINK(\"\"e\"\") (y)\",1,"), "formula guarded: \(lines[2])")
        #expect(lines.contains("\"Missing, because not reached\",1,"))
        let born = try #require(try await Self.charts().chart(file: "questions/born"))
        // Day 3000 is 1978-03-20, a Monday: three weekly bins from it.
        #expect(born.rows.prefix(3).map { $0[0] } == ["1978-03-20", "1978-03-27", "1978-04-03"])
        #expect(born.rows.prefix(3).map { $0[2] } == ["2", "0", "1"])
    }
}
