import ArgumentParser
import Foundation
import JSON
import SurveyAnalysis
import SurveyCore
import SurveyImport
import SurveyRendering
import SurveyServer

/// `survey simulate FILE --answers ANSWERS`: walks a survey with scripted form fields, the
/// way a browser would submit them, and prints the result. For testing branching.
///
/// `survey simulate FILE --to STEP`: prints answers that lead to the step, in the answers-file
/// format, or says in one line why no answers do.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a survey with scripted answers and print its result (docs/survey-format.md#results).",
        discussion: """
            ANSWERS is a JSON object from step identifier to the form fields of that step, e.g.
            {"fever": {"fever": "true"}, "temp": {"temp": "38.5"}}. A step with no entry is \
            submitted empty; "$skip" as a step's value presses Skip. Steps are answered in the \
            order the survey's rules lead, until it ends.

            With --to STEP, prints answers that lead to STEP (an ANSWERS file, steps in the \
            order they are shown), or exits with 1 and says why no answers do.
            """
    )

    @Argument(help: "The survey file.")
    var file: String

    @Option(name: .long, help: "A JSON file of answers by step identifier.")
    var answers: String?

    @Option(name: .long, help: "The participant's language, for numbers such as 1,5.")
    var language: String?

    @Flag(name: .long, help: "Print the result in ResearchKit's serialization shape.")
    var researchkit = false

    @Option(name: .long, help: "Print answers that lead to this step instead of running the survey.")
    var to: String?

    func validate() throws {
        if to != nil, answers != nil || researchkit {
            throw ValidationError("--to finds the answers itself; it takes neither --answers nor --researchkit.")
        }
    }

    func run() throws {
        let survey: LoadedSurvey
        do throws(SurveyLoadError) {
            let url = URL(fileURLWithPath: file)
            let terminology = FHIRTerminology.load(surveysFolder: url.deletingLastPathComponent().path, packagesFolder: nil).terminology
            // A dictionary of several instruments is simulated on its first.
            guard let first = try SurveyFiles.load(contentsOf: url, terminology: terminology).first else { throw SurveyLoadError(diagnostics: []) }
            survey = first
        } catch {
            for diagnostic in error.diagnostics { print("\(file): \(diagnostic)") }
            throw ExitCode(1)
        }
        if let to {
            try printAnswers(leadingTo: to, in: survey.task)
            return
        }
        var script = JSONObject()
        if let answers {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: answers)), case .object(let object)? = try? JSONParser.parse(data) else {
                throw ValidationError("\(answers) is not a JSON object of answers by step.")
            }
            script = object
        }
        let navigator = Navigator(task: survey.task)
        var now = Date()
        var run = navigator.start(now: now)
        var moves = 0
        while !run.isFinished {
            moves += 1
            guard moves < 10_000, let step = navigator.currentStep(run) else { break }
            now = now.addingTimeInterval(1)
            let entry = script[step.identifier]
            if navigator.pendingAllocation(run) != nil {
                run = navigator.assign(arm: navigator.scriptedArm(entry, of: step), in: run, now: now)
                continue
            }
            if entry == .string("$skip") {
                run = navigator.skip(run, visit: run.cursor, now: now)
                continue
            }
            let context = AnswerContext(language: language, now: now, timeZone: navigator.timeZone)
            switch navigator.answer(run, visit: run.cursor, fields: navigator.scriptedFields(entry, of: step, in: run), context: context) {
            case .accepted(let next):
                run = next
            case .rejected(let issues):
                let words = Catalog(language: language ?? "en")
                for issue in issues {
                    let line = "\(step.identifier): \(issue.field): \(issue.code.rawValue): \(words.words(for: issue))\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
                throw ExitCode(2)
            }
        }
        let result = navigator.result(of: run, now: now)
        let value = researchkit ? result.researchKitJSON(in: navigator.timeZone) : result.json(in: navigator.timeZone)
        print(JSONWriter.string(value), terminator: "")
    }

    /// Prints a witness's answers for `step`, or one line on standard error saying why there is none.
    private func printAnswers(leadingTo step: String, in task: SurveyTask) throws {
        guard task.step(step) != nil else {
            FileHandle.standardError.write(Data("The survey \(file) has no step \"\(step)\".\n".utf8))
            throw ExitCode(1)
        }
        let finder = PathFinder(task: task, timeZone: Navigator(task: task).timeZone)
        switch finder.reach(step) {
        case .reachable(let witness):
            print(JSONWriter.string(witness.answersFile), terminator: "")
        case .unreachable(let reason):
            FileHandle.standardError.write(Data((ReachWords.sentence(reason, step: step) + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
