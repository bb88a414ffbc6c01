import Foundation
import JSON
import SurveyAnalysis
import SurveyCore
@testable import SurveyRendering
import Testing

@Suite("Exports: wide and long CSV, the codebook, missing reasons")
struct ExportTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// The every-format example's answers, with some steps changed.
    static func everyFormatScript(_ changes: [String: JSONValue]) throws -> JSONObject {
        let data = try Data(contentsOf: Files.root.appendingPathComponent("Tests/Fixtures/every-format.answers.json"))
        guard case .object(var script) = try JSONParser.parse(data) else { throw CocoaError(.fileReadCorruptFile) }
        for (step, value) in changes { script[step] = value }
        return script
    }

    /// An answers script from step identifiers to their fields (or "$skip").
    static func script(_ steps: [String: JSONValue]) -> JSONObject {
        var object = JSONObject()
        for (step, value) in steps { object[step] = value }
        return object
    }

    static func fields(_ pairs: [String: String]) -> JSONValue {
        var object = JSONObject()
        for (name, value) in pairs { object[name] = .string(value) }
        return .object(object)
    }

    static func walk(_ task: SurveyTask, _ script: [String: JSONValue], to target: String? = nil) throws -> TaskRun {
        try walk(task, Self.script(script), to: target)
    }

    static func walk(_ task: SurveyTask, _ script: JSONObject, to target: String? = nil) throws -> TaskRun {
        guard case .arrived(let run) = Navigator(task: task).walk(script, to: target, from: start) else {
            throw CocoaError(.featureUnsupported)
        }
        return run
    }

    /// The wide CSV of runs as rows of cells by column name (the CSV has no quoted line breaks here).
    static func wide(_ task: SurveyTask, _ runs: [(TaskRun, String)], codes: Bool = false) -> [[String: String]] {
        let exporter = Exporter(format: .csv, task: task, options: .init(missingCodes: codes))
        var text = exporter.head()
        for (run, status) in runs { text += exporter.write(ExportedRun(run: run, status: status, participant: nil, updatedAt: start)) }
        let records = parse(text)
        let names = records[0]
        #expect(Set(names).count == names.count, "column names are unique")
        return records.dropFirst().map { Dictionary(zip(names, $0), uniquingKeysWith: { first, _ in first }) }
    }

    /// RFC 4180 records, read as a spreadsheet would.
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                record.append(field)
                field = ""
            } else if character == "\r\n" || character == "\n" {
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.append(character)
            }
        }
        return records
    }

    @Test("Each missing reason is told apart: not shown (hidden item), skipped, don't know, and answers on the path")
    func reasonsInACompletedRun() throws {
        let task = try Files.task("Examples/every-format.json")
        guard case .object(var about)? = try Self.everyFormatScript([:])["about-you"] else {
            Issue.record("no about-you answers")
            return
        }
        about["water"] = nil
        about["water.dontKnow"] = .string("1")
        let script = try Self.everyFormatScript([
            "contact-ok": Self.fields(["contact-ok": "false"]), "stress": Self.fields(["stress.dontKnow": "1"]),
            "ladder": .string("$skip"), "about-you": JSONValue.object(about),
        ])
        let run = try Self.walk(task, script)
        #expect(run.finishReason == .completed)
        let answers = Exporting(task: task).answers(of: run)
        #expect(answers.outcome(step: "about-you", question: "email") == .missing(.notShown), "hidden by visibleIf")
        #expect(answers.outcome(step: "stress", question: "stress") == .missing(.dontKnow))
        #expect(answers.outcome(step: "about-you", question: "water") == .missing(.dontKnow))
        #expect(answers.outcome(step: "ladder", question: "ladder") == .missing(.skipped))
        let row = try #require(Self.wide(task, [(run, "completed")], codes: true).first)
        #expect(row["about-you.email"] == "-91")
        #expect(row["stress"] == "-93")
        #expect(row["ladder"] == "-92")
        #expect(row["contact-ok"] == "0")
        #expect(row["handedness"] == "right")
        #expect(row["transport__walk"] == "1")
        #expect(row["transport__car"] == "0")
        #expect(row["transport__other"] == "1", "the typed text stands for the other choice")
        #expect(row["transport__other_text"] == "E-scooter")
        #expect(row["blood-group__1"] == "A")
        #expect(row["blood-group__2"] == "'+", "a value that begins with + is kept from spreadsheets' formulas")
        #expect(row["about-you.height"] == "172")
        #expect(row["about-you.wake-time"] == "06:45")
        #expect(row["about-you.exercise"] == "2700")
        #expect(row["last-checkup"] == "2024-05-14")
        #expect(row["hometown"] == "Leipzig, Germany")
        // Without codes every missing cell is empty, so any reader gets NA.
        let plain = try #require(Self.wide(task, [(run, "completed")]).first)
        #expect(plain["about-you.email"] == "")
        #expect(plain["stress"] == "")
    }

    @Test("A run saved part way: steps ahead are not reached, a branch the path left is not shown")
    func savedRunReasons() throws {
        let task = try Files.task("Examples/fever-triage.json")
        let run = try Self.walk(task, ["fever": Self.fields(["fever": "true"])], to: "temperature")
        let answers = Exporting(task: task).answers(of: run)
        #expect(answers.outcome(step: "fever", question: "fever") != .missing(.notReached))
        #expect(answers.outcome(step: "temperature", question: "celsius") == .missing(.notReached), "showing, not answered")
        #expect(answers.outcome(step: "danger-signs", question: "danger-signs") == .missing(.notReached))
        #expect(answers.outcome(step: "other-symptoms", question: "other-symptoms") == .missing(.notShown),
                "no move from temperature leads to the other branch")
    }

    @Test("A run that went back and changed a branch exports only its final path")
    func backAndChange() throws {
        let task = try Files.task("Examples/fever-triage.json")
        let navigator = Navigator(task: task)
        var run = try Self.walk(task, ["fever": Self.fields(["fever": "true"]), "temperature": Self.fields(["celsius": "39.5"])],
                                to: "danger-signs")
        run = navigator.back(run, now: Self.start.addingTimeInterval(100))
        run = navigator.back(run, now: Self.start.addingTimeInterval(101))
        #expect(navigator.currentStep(run)?.identifier == "fever")
        guard case .accepted(let changed) = navigator.answer(run, visit: run.cursor, fields: FormFields(pairs: [("fever", "false")]),
                                                             context: AnswerContext(language: nil, now: Self.start.addingTimeInterval(102),
                                                                                    timeZone: navigator.timeZone)) else {
            Issue.record("refused")
            return
        }
        let answers = Exporting(task: task).answers(of: changed)
        #expect(answers.outcome(step: "temperature", question: "celsius") == .missing(.notShown))
        let exporter = Exporter(format: .long, task: task)
        let long = exporter.write(ExportedRun(run: changed, status: "inProgress", participant: nil, updatedAt: Self.start))
        #expect(!long.contains("39.5"), "the answer of the branch left is not exported")
        #expect(long.contains(",temperature,celsius,,,,,,,not_shown,\r\n"))
    }

    @Test("The long CSV has a row per visit and question with its timing, and why an answer is missing")
    func longRows() throws {
        let task = try Files.task("Examples/fever-triage.json")
        let run = try Self.walk(task, ["fever": Self.fields(["fever": "false"]), "other-symptoms": .string("$skip")])
        let exporter = Exporter(format: .long, task: task)
        let text = exporter.head() + exporter.write(ExportedRun(run: run, status: "completed", participant: nil, updatedAt: Self.start))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "run_id,step,item,visit,value,label,started,ended,seconds,missing,instance")
        let fever = try #require(lines.first { $0.contains(",fever,fever,") })
        #expect(fever.contains(",fever,fever,1,0,No,"))
        #expect(fever.hasSuffix(",1,,"), "a second on the step, nothing missing, no instance: \(fever)")
        #expect(lines.contains { $0.contains(",other-symptoms,other-symptoms,1,,,") && $0.hasSuffix(",skipped,") })
        #expect(lines.contains { $0.contains(",danger-signs,danger-signs,,,,,,,not_shown") })
        #expect(lines.contains { $0.contains(",intro,,1,,,") }, "instruction steps keep their timing")
    }

    @Test("Quoting: commas, quotes and line breaks are quoted; formula-looking text gets an apostrophe, and reading drops it")
    func quotingAndFormulas() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field(" padded") == "\" padded\"")
        for formula in ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-2", "@SUM(A1)", "\tx", "'=x", "''-y", "=\u{0301}x"] {
            let protected = CSV.protected(formula)
            #expect(protected.hasPrefix("'"))
            #expect(CSV.unprotected(protected) == formula)
        }
        for text in ["ordinary", "'quoted'", "a=b", ""] {
            #expect(CSV.protected(text) == text)
            #expect(CSV.unprotected(text) == text)
        }
        #expect(CSV.record(["'=HYPERLINK(\"x\")", "1"]) == "\"'=HYPERLINK(\"\"x\"\")\",1\r\n")
    }

    @Test("A typed formula leaves the export as text in the wide and long CSV")
    func typedFormula() throws {
        let task = try Files.task("Examples/wellbeing-check.json")
        let run = try Self.walk(task, ["mood": Self.fields(["mood": "3"]), "comments": Self.fields(["comments": "=HYPERLINK(\"http://evil\",\"x\")"])])
        for format in [ExportFormat.csv, .long] {
            let text = Exporter(format: format, task: task).write(ExportedRun(run: run, status: "completed", participant: nil, updatedAt: Self.start))
            #expect(text.contains("\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\""), "\(format)")
            #expect(!text.contains(",=HYPERLINK"))
        }
    }

    @Test("The codebook has a row per wide column, with labels, values, range, unit, the condition and the missing codes")
    func codebook() throws {
        let task = try Files.task("Examples/fever-triage.json")
        let exporter = Exporter(format: .csv, task: task)
        let header = exporter.head().trimmingCharacters(in: .newlines).components(separatedBy: ",")
        let book = Codebook(task: task)
        #expect(book.entries.map(\.name) == header)
        let temperature = try #require(book.entries.first { $0.name == "temperature.celsius" })
        #expect(temperature.unit.isEmpty == false || temperature.range.isEmpty == false)
        #expect(temperature.shownWhen.contains("after fever if"))
        let fever = try #require(book.entries.first { $0.name == "fever" })
        #expect(fever.values.map(\.value) == ["1", "0"])
        let csv = book.csv()
        #expect(csv.hasPrefix("column,label,type,storage,values,range,unit,optional,shown_when,missing_codes,identifying,note\r\n"))
        #expect(csv.contains("-91 = not shown; -92 = skipped; -93 = don't know; -94 = not reached"))
        let danger = try #require(book.entries.first { $0.name.hasPrefix("danger-signs__") })
        #expect(danger.values.map(\.value) == ["1", "0"])
    }

    @Test("JSON exports are one array of spec §5 results, in pieces")
    func jsonArray() throws {
        let task = try Files.task("Examples/wellbeing-check.json")
        let run = try Self.walk(task, ["mood": Self.fields(["mood": "3"])])
        let exporter = Exporter(format: .json, task: task)
        var text = exporter.head()
        for _ in 0..<3 { text += exporter.write(ExportedRun(run: run, status: "completed", participant: nil, updatedAt: Self.start)) }
        text += exporter.tail()
        guard case .array(let results) = try JSONParser.parse(text) else {
            Issue.record("not an array")
            return
        }
        #expect(results.count == 3)
        let empty = Exporter(format: .researchkit, task: task)
        #expect(try JSONParser.parse(empty.head() + empty.tail()) == .array([]))
    }

    @Test("Runs of an older survey version export with it: their version named, and the columns only it had kept at the end")
    func olderVersions() throws {
        let old = try Files.task("Examples/wellbeing-check.json")
        let text = try String(contentsOf: Files.root.appendingPathComponent("Examples/wellbeing-check.json"), encoding: .utf8)
        let edited = try SurveyLoader.load(Data(text.replacingOccurrences(of: "\"comments\"", with: "\"notes\"").utf8)).task
        #expect(old.version != edited.version)
        #expect(old.version.count == 16)
        #expect(try Files.task("Examples/wellbeing-check.json").version == old.version, "the same file, the same version")
        let oldRun = try Self.walk(old, ["mood": Self.fields(["mood": "3"]), "comments": Self.fields(["comments": "before the edit"])])
        let newRun = try Self.walk(edited, ["mood": Self.fields(["mood": "5"]), "notes": Self.fields(["notes": "after the edit"])])
        let exporter = Exporter(format: .csv, task: edited, older: [(old.version, old)], options: .init(missingCodes: true))
        let text2 = exporter.head()
            + exporter.write(ExportedRun(run: oldRun, status: "completed", participant: nil, updatedAt: Self.start, surveyVersion: old.version))
            + exporter.write(ExportedRun(run: newRun, status: "completed", participant: nil, updatedAt: Self.start, surveyVersion: edited.version))
        let records = Self.parse(text2)
        let names = records[0]
        #expect(names.last == "comments", "the old version's column comes last")
        #expect(names.contains("notes"))
        let rows = records.dropFirst().map { Dictionary(zip(names, $0), uniquingKeysWith: { first, _ in first }) }
        #expect(rows[0]["survey_version"] == old.version)
        #expect(rows[0]["comments"] == "before the edit")
        #expect(rows[0]["notes"] == "-91", "the old version never showed the new question")
        #expect(rows[1]["notes"] == "after the edit")
        #expect(rows[1]["comments"] == "-91")
        let book = Codebook(task: edited, older: [(old.version, old)])
        let comments = try #require(book.entries.first { $0.name == "comments" })
        #expect(comments.note.hasPrefix("Only in survey version \(old.version)."))
    }

    @Test("Column names that come out the same are told apart, so every export of a survey that loads can be written")
    func repeatedNames() throws {
        let task = try SurveyLoader.load(Data(#"""
            {"identifier": "clash", "steps": [
              {"identifier": "a.b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "a", "type": "form", "items": [{"identifier": "b", "answerFormat": {"type": "boolean"}}]}]}
            """#.utf8)).task
        let names = ExportLayout(task: task).columns.map(\.name)
        #expect(names == ["a.b", "a.b_2"])
        for format in ExportFormat.allCases {
            #expect(!Exporter(format: format, task: task).head().isEmpty)
        }
    }
}
