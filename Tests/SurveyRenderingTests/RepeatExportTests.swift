import Foundation
import JSON
import SurveyAnalysis
import SurveyCore
import SurveyTestSupport
import Testing
@testable import SurveyRendering

/// A repeating form in the exports: a count column and numbered columns per instance in the
/// wide CSV (as many as the most any run has), the codebook and syntax beside them, and a
/// long CSV row per instance.
@Suite("Repeating forms in the exports")
struct RepeatExportTests {
    static let survey = """
        {"identifier": "meds", "steps": [
          {"identifier": "meds", "type": "form", "title": "Medicines", "repeat": {"label": "Medicine", "maximum": 5},
           "items": [{"identifier": "name", "text": "Name", "optional": false, "answerFormat": {"type": "text"}},
                     {"identifier": "dose", "text": "Dose", "answerFormat": {"type": "numeric", "style": "integer"}}]},
          {"identifier": "end", "type": "instruction", "title": "End"}]}
        """

    func run(_ task: SurveyTask, _ instances: [[String: String]]) throws -> TaskRun {
        let navigator = Navigator(task: task, timeZone: utc)
        let list: [JSONValue] = instances.map { fields in .object(JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })) }
        guard case .arrived(let run) = navigator.walk(JSONObject([("meds", JSONValue.array(list))]), from: referenceNow) else { throw CancellationError() }
        #expect(run.isFinished)
        return run
    }

    @Test("The wide CSV has the count and each instance's columns up to the most any run has; fewer instances leave cells not shown")
    func wide() throws {
        let task = try loadSurvey(Self.survey)
        let two = try run(task, [["name": "Aspirin", "dose": "75"], ["name": "Ibuprofen"]])
        let one = try run(task, [["name": "Salbutamol", "dose": "2"]])
        var counts: [String: Int] = [:]
        for run in [two, one] { ExportLayout.countInstances(of: run, into: &counts) }
        #expect(counts == ["meds": 2])
        let exporter = Exporter(format: .csv, task: task, options: .init(missingCodes: true), instanceCounts: counts)
        let header = exporter.head()
        #expect(header.hasSuffix(",meds,meds.name.1,meds.dose.1,meds.name.2,meds.dose.2\r\n"), "\(header)")
        let first = exporter.write(ExportedRun(run: two, status: "completed", participant: nil, updatedAt: referenceNow))
        #expect(first.hasSuffix(",2,Aspirin,75,Ibuprofen,-92\r\n"), "\(first)")
        let second = exporter.write(ExportedRun(run: one, status: "completed", participant: nil, updatedAt: referenceNow))
        #expect(second.hasSuffix(",1,Salbutamol,2,-91,-91\r\n"), "an instance the run has not was not shown: \(second)")
        let codebook = Codebook(task: task, instanceCounts: counts)
        #expect(codebook.questionColumns == ["meds", "meds.name.1", "meds.dose.1", "meds.name.2", "meds.dose.2"])
        #expect(codebook.entries.first { $0.name == "meds.dose.2" }?.label == "Dose — Medicine 2")
        #expect(RSyntax(task: task, codebook: codebook).text.contains("\"meds.name.2\""))
        #expect(SPSSSyntax(task: task, codebook: codebook).text.contains("meds.name.2"))
        #expect(Codebook(task: task).questionColumns == ["meds"], "with no runs, only the count")
    }

    @Test("The long CSV has a row per instance and question, numbered in its last column")
    func long() throws {
        let task = try loadSurvey(Self.survey)
        let exporter = Exporter(format: .long, task: task)
        let text = exporter.write(ExportedRun(run: try run(task, [["name": "Aspirin", "dose": "75"], ["name": "Ibuprofen"]]),
                                              status: "completed", participant: nil, updatedAt: referenceNow))
        let rows = text.components(separatedBy: "\r\n").filter { $0.contains(",meds,") }
        #expect(rows.count == 4)
        #expect(rows[0].contains(",meds,name,1,Aspirin,") && rows[0].hasSuffix(",,1"))
        #expect(rows[3].contains(",meds,dose,1,,") && rows[3].hasSuffix(",skipped,2"))
    }
}
