import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

/// A panel study's run in the exports: its parameters and drawn orders as run columns of the
/// wide CSV (in the codebook), its parameters as rows of the long CSV, its arm as a choice column.
@Suite("Panel studies in the exports")
struct PanelExportTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func run(_ task: SurveyTask) throws -> TaskRun {
        let navigator = Navigator(task: task)
        var run = navigator.start(uuid: UUID(), now: Self.start, parameters: ["PROLIFIC_PID": "=cmd", "STUDY_ID": "S1", "SESSION_ID": "X1"])
        run.choiceOrders = ["pet": [1, 0, 3, 2, 4]]
        run.blockOrders = ["attitudes": [2, 0, 1]]
        let answers = ["age": "35to54", "pet": "dog", "enjoy": "2", "worry": "0", "cost": "true", "mood": "6"]
        for second in 1...20 where !run.isFinished {
            let now = Self.start.addingTimeInterval(Double(second))
            if navigator.pendingAllocation(run) != nil {
                run = navigator.assign(arm: "walk", in: run, now: now)
                continue
            }
            let name = run.current?.stepIdentifier ?? ""
            let fields = answers[name].map { FormFields(pairs: [(name, $0)]) } ?? FormFields(pairs: [])
            guard case .accepted(let next) = navigator.answer(run, visit: run.cursor, fields: fields,
                                                              context: AnswerContext(language: nil, now: now, timeZone: navigator.timeZone)) else {
                Issue.record("\(name) refused")
                break
            }
            run = next
        }
        #expect(run.finishReason == .completed)
        return run
    }

    @Test("The wide CSV has a column per parameter, the block's and the shuffled question's orders, and the arm")
    func wide() throws {
        let task = try Files.task("Examples/panel-study.json")
        let exporter = Exporter(format: .csv, task: task)
        let lines = (exporter.head() + exporter.write(ExportedRun(run: try run(task), status: "completed", participant: nil,
                                                                  updatedAt: Self.start))).components(separatedBy: "\r\n")
        let header = lines[0].components(separatedBy: ",")
        let row = lines[1].components(separatedBy: ",")
        func cell(_ name: String) -> String? { header.firstIndex(of: name).map { row[$0] } }
        #expect(cell("PROLIFIC_PID") == "'=cmd", "a value that could be a formula is guarded")
        #expect(cell("STUDY_ID") == "S1")
        #expect(cell("attitudes__order") == "cost|enjoy|worry")
        #expect(cell("pet__order") == "dog|cat|bird|fish|none")
        #expect(cell("arm") == "walk")
        let codebook = Codebook(task: task)
        #expect(codebook.runEntries.map(\.name).suffix(5) == ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "attitudes__order", "pet__order"])
    }

    @Test("The long CSV has a row per parameter, named as rules name it")
    func long() throws {
        let task = try Files.task("Examples/panel-study.json")
        let exporter = Exporter(format: .long, task: task)
        let text = exporter.write(ExportedRun(run: try run(task), status: "completed", participant: nil, updatedAt: Self.start))
        #expect(text.contains(",parameters,STUDY_ID,,S1,,,,,,\r\n"))
        #expect(text.contains(",parameters,PROLIFIC_PID,,'=cmd,,,,,,\r\n"))
    }
}
