import Foundation
import JSON
@testable import SurveyAnalysis
import SurveyCore
import SurveyTestSupport
import Testing

/// The dashboard's facts against the wide export, cell by cell: for every example, its scripted
/// run and that run stopped after each step, every question's fact says what its export column
/// says (the same choice, number, day or missing reason).
@Suite("Dashboard facts")
struct DashboardFactsTests {
    /// The example's scripted run, and the run as it stood after each page (a saved run).
    static func runs(of task: SurveyTask) throws -> [TaskRun] {
        let script = try JSONParser.parse(String(contentsOf: Repository.root.appendingPathComponent("Tests/Fixtures/\(task.identifier).answers.json"),
                                                 encoding: .utf8))
        guard case .object(let entries) = script else { return [] }
        let navigator = Navigator(task: task, timeZone: utc)
        var clock = referenceNow
        var run = navigator.start(now: clock)
        var runs: [TaskRun] = []
        for _ in 0..<300 {
            guard !run.isFinished, let step = navigator.currentStep(run) else { break }
            runs.append(run)
            clock.addTimeInterval(7)
            let entry = entries[step.identifier]
            if navigator.pendingAllocation(run) != nil {
                run = navigator.assign(arm: navigator.scriptedArm(entry, of: step), in: run, now: clock)
            } else if entry == .string("$skip") {
                run = navigator.skip(run, visit: run.cursor, now: clock)
            } else {
                let context = AnswerContext(language: nil, now: clock, timeZone: utc)
                guard case .accepted(let next) = navigator.answer(run, visit: run.cursor, fields: navigator.scriptedFields(entry, of: step, in: run),
                                                                  context: context) else { break }
                run = next
            }
        }
        return runs + [run]
    }

    @Test("Every question's facts agree with the wide export's cells, for every example's run at every stage",
          arguments: Repository.exampleNames())
    func factsMatchExport(_ file: String) throws {
        let task = try SurveyLoader.load(contentsOf: Repository.examples.appendingPathComponent(file)).task
        let runs = try Self.runs(of: task)
        var instances: [String: Int] = [:]
        for run in runs { ExportLayout.countInstances(of: run, into: &instances) }
        let layout = ExportLayout(task: task, instanceCounts: instances)
        let exporting = Exporting(task: task)
        let reader = FactReader(task: task, timeZone: utc)
        let questions = Dictionary(DashboardQuestion.all(in: task).map { ("\($0.step)\u{0}\($0.isInstanceCount ? "#" : $0.question)", $0) },
                                   uniquingKeysWith: { first, _ in first })
        #expect(runs.count > 2 && runs.last?.isFinished == true, "the scripted run completes")
        var checked = 0
        for run in runs {
            let facts = reader.facts(of: run, status: run.isFinished ? "completed" : "saved", version: 1, surveyVersion: nil)
            let cells = layout.cells(exporting.answers(of: run), timeZone: utc)
            for (column, cell) in zip(layout.columns, cells) {
                guard let question = questions["\(column.step)\u{0}\(column.isInstanceCount ? "#" : column.question)"] else { continue }
                var rows = facts.answers.filter { $0.key == question.key }
                // A repeating form's items have a row per instance, in order (and their ticks beside).
                if let instance = column.instance {
                    let own = rows.filter { $0.outcome != AnswerFact.chosen }
                    // Columns for instances past the run's own are the wide layout's, not the run's: not counted.
                    guard own.indices.contains(instance - 1) else { continue }
                    rows = [own[instance - 1]]
                    if case .choice = column.part { continue }
                }
                switch (cell, column.part) {
                case (.missing(let reason), _):
                    #expect(rows.map(\.outcome) == [reason.rawValue], "\(column.name): \(reason)")
                case (.value(let text), .choice(let value)):
                    #expect(rows.contains { $0.outcome == AnswerFact.chosen && $0.bucket == value.formValue } == (text == "1"), "\(column.name)")
                case (.value(let text), .answer):
                    let answer = try #require(rows.first { $0.outcome == AnswerFact.answered }, "\(column.name) has an answer row")
                    switch question.tally {
                    case .choices(multiple: false):
                        if case .boolean = question.format {
                            #expect(answer.bucket == (text == "1" ? "true" : "false"), "\(column.name)")
                        } else if case .multipleValuePicker = question.format {
                            #expect(answer.bucket?.replacingOccurrences(of: " / ", with: ";") == text, "\(column.name)")
                        } else {
                            #expect(answer.bucket == text, "\(column.name)")
                        }
                    case .numbers:
                        #expect(answer.number.map(JSONWriter.number) == text, "\(column.name)")
                    case .days:
                        let day = try #require(CalendarDate(String(text.prefix(10))), "\(column.name): \(text)")
                        #expect(answer.number == Double(day.dayNumber), "\(column.name)")
                    case .minutes:
                        #expect(answer.number.map { String(format: "%02d:%02d", Int($0) / 60, Int($0) % 60) } == text, "\(column.name)")
                    case .counted, .choices(multiple: true):
                        #expect(answer.bucket == nil && answer.number == nil, "\(column.name): text is never kept")
                    }
                default:
                    continue
                }
                checked += 1
            }
        }
        #expect(checked > runs.count, "cells were compared")
    }

    @Test("The path's steps: each once, timed from page to answer, and the stop marked for a run not completed")
    func stepsOnThePath() throws {
        let task = try SurveyLoader.load(contentsOf: Repository.examples.appendingPathComponent("wellbeing-check.json")).task
        let runs = try Self.runs(of: task)
        let reader = FactReader(task: task, timeZone: utc)
        let partial = reader.facts(of: runs[2], status: "saved", version: 3, surveyVersion: nil)
        #expect(partial.steps.map(\.step) == Array(runs[2].path.map(\.stepIdentifier)))
        #expect(partial.steps.last?.stopped == true && partial.steps.last?.seconds == nil)
        #expect(partial.steps.dropLast().allSatisfy { !$0.stopped && $0.seconds == 7 })
        #expect(partial.version == 3 && partial.status == "saved")
        let done = reader.facts(of: runs.last!, status: "completed", version: 9, surveyVersion: nil)
        #expect(done.steps.allSatisfy { !$0.stopped })
        #expect(done.day == DashboardQuestion.dayNumber(of: referenceNow, in: utc))
    }

    @Test("Text typed in an 'other' box counts as the other choice, never as a bucket of its own")
    func otherTextIsNotShown() throws {
        let task = try loadSurvey("""
            {"identifier": "o", "steps": [{"type": "question", "identifier": "pick", "answerFormat": {"type": "textChoice", "style": "multipleChoice",
              "choices": [{"text": "A", "value": "a"}, {"text": "Other", "value": "other", "other": {}}]}},
              {"type": "question", "identifier": "one", "answerFormat": {"type": "textChoice", "style": "singleChoice",
              "choices": [{"text": "A", "value": "a"}, {"text": "Other", "value": "other", "other": {}}]}}]}
            """)
        let questions = DashboardQuestion.all(in: task)
        let many = questions[0].facts(for: .choices([.string("a"), .string("my secret")]), timeZone: utc)
        #expect(many.map(\.bucket) == [nil, "a", "other"])
        let one = questions[1].facts(for: .choices([.string("my secret")]), timeZone: utc)
        #expect(one.map(\.bucket) == ["other"])
    }

    @Test("Histogram bins: whole numbers one to a bar, round widths, weeks from a Monday, hours; one bar for one value or a range too wide")
    func bins() {
        #expect(HistogramBins.make(.numbers, minimum: 1, maximum: 5, integral: true) == HistogramBins(origin: 1, width: 1, count: 5))
        // A slider from 0 to 1 is not a whole-number question: twenty bars of 0.05, not two of 1.
        let slider = HistogramBins.make(.numbers, minimum: 0, maximum: 1)
        #expect(slider.width == 0.05 && slider.bin(of: 0.5) == 10 && slider.bin(of: 1) == slider.count - 1)
        #expect(slider.bin(of: 0.6) == 12 && slider.bin(of: 0.35) == 7, "a number on an edge starts its bin, whatever the rounding")
        let wide = HistogramBins.make(.numbers, minimum: 3, maximum: 987)
        #expect(wide.width == 50 && wide.origin == 0 && wide.count == 20)
        #expect(wide.bin(of: 987) == 19 && wide.bin(of: 3) == 0)
        let fine = HistogramBins.make(.numbers, minimum: 0.12, maximum: 0.93)
        #expect(fine.width == 0.05 && fine.bin(of: 0.93) == fine.count - 1)
        // Day 0 (1970-01-01) was a Thursday, so day d is a Monday when d + 3 is a multiple of 7.
        let weeks = HistogramBins.make(.days, minimum: 20_424, maximum: 20_424 + 30)
        #expect((Int(weeks.origin) + 3) % 7 == 0 && weeks.origin <= 20_424 && weeks.origin > 20_424 - 7, "a Monday")
        #expect(weeks.width == 7 && weeks.bin(of: 20_454) == weeks.count - 1)
        let years = HistogramBins.make(.days, minimum: -3_000, maximum: 17_000)
        #expect(years.count <= 26 && Int(years.width) % 7 == 0 && years.bin(of: 17_000) == years.count - 1)
        #expect(HistogramBins.make(.minutes, minimum: 125, maximum: 600) == HistogramBins(origin: 120, width: 60, count: 9))
        #expect(HistogramBins.make(.numbers, minimum: 2.5, maximum: 2.5).count == 1)
        // One day is its week's bar, from the Monday; one time its hour's.
        #expect(HistogramBins.make(.days, minimum: 20_424, maximum: 20_424) == HistogramBins(origin: Double(weeks.origin), width: 7, count: 1))
        #expect(HistogramBins.make(.minutes, minimum: 510, maximum: 510) == HistogramBins(origin: 480, width: 60, count: 1))
        #expect(HistogramBins.make(.numbers, minimum: -Double.greatestFiniteMagnitude, maximum: .greatestFiniteMagnitude).count == 1)
    }

    @Test("Percentiles by nearest rank from counts")
    func percentiles() {
        #expect(DashboardReport.percentile(0.5, of: [1: 1, 2: 1, 3: 1, 4: 1], count: 4) == 2)
        #expect(DashboardReport.percentile(0.9, of: [1: 9, 100: 1], count: 10) == 1)
        #expect(DashboardReport.percentile(0.9, of: [1: 8, 100: 2], count: 10) == 100)
        #expect(DashboardReport.percentile(0.5, of: [7: 1], count: 1) == 7)
    }

    @Test("Discarded runs join the runs by day in the survey's time zone, under the date and status filters, and not under an arm or parameter")
    func discardedRuns() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        // 2026-01-10 23:30 UTC is the 11th in Paris; 22:30 UTC is still the 10th.
        let began = [1_768_087_800, 1_768_084_200, 1_768_084_200].map { Date(timeIntervalSince1970: $0) }
        let tenth = DashboardQuestion.dayNumber(of: began[1], in: paris)
        #expect(DashboardQuestion.dayNumber(of: began[0], in: paris) == tenth + 1)
        func days(_ query: DashboardQuery) -> [DashboardTally.Day] {
            var tally = DashboardTally(days: [DashboardTally.Day(day: tenth, status: "completed", count: 3)])
            tally.addDiscarded(began: began, query: query, timeZone: paris)
            return tally.sorted.days
        }
        #expect(days(DashboardQuery(survey: "s")) == [DashboardTally.Day(day: tenth, status: "completed", count: 3),
                                                     DashboardTally.Day(day: tenth, status: "discarded", count: 2),
                                                     DashboardTally.Day(day: tenth + 1, status: "discarded", count: 1)])
        #expect(days(DashboardQuery(survey: "s", fromDay: tenth + 1)).filter { $0.status == "discarded" }.map(\.day) == [tenth + 1])
        #expect(days(DashboardQuery(survey: "s", toDay: tenth)).filter { $0.status == "discarded" }.map(\.count) == [2])
        #expect(days(DashboardQuery(survey: "s", status: "discarded")).filter { $0.status == "discarded" }.count == 2)
        #expect(days(DashboardQuery(survey: "s", status: "completed")).allSatisfy { $0.status == "completed" })
        #expect(days(DashboardQuery(survey: "s", labels: [.init(name: RunFacts.armLabel("arm"), value: "a")])).allSatisfy { $0.status == "completed" })
    }
}
