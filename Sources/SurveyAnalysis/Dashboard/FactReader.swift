import Foundation
import SurveyCore

/// Reads the dashboard's facts from runs, each with the version of the survey it was made
/// with (as an export does), so its missing answers are classified exactly as the export's.
public final class FactReader {
    private struct VersionReader {
        let exporting: Exporting
        let questions: [DashboardQuestion]
    }

    private let current: String
    private let tasks: [String: SurveyTask]
    private var readers: [String: VersionReader] = [:]
    private let timeZone: TimeZone

    /// - Parameters:
    ///   - older: the kept earlier versions of the survey.
    ///   - timeZone: the survey's, in which a run's day is counted.
    public init(task: SurveyTask, older: [(version: String, task: SurveyTask)] = [], timeZone: TimeZone) {
        current = task.version
        var tasks = [task.version: task]
        for (version, old) in older where tasks[version] == nil { tasks[version] = old }
        self.tasks = tasks
        self.timeZone = timeZone
    }

    private func reader(for version: String?) -> VersionReader {
        let version = version.flatMap { tasks[$0] == nil ? nil : $0 } ?? current
        if let known = readers[version] { return known }
        let task = tasks[version]!
        let made = VersionReader(exporting: Exporting(task: task), questions: DashboardQuestion.all(in: task))
        readers[version] = made
        return made
    }

    /// The facts of one stored run.
    /// - Parameters:
    ///   - status: the run's status as the store reports it (a saved run's is `saved`).
    ///   - version: the store's version of the run.
    ///   - surveyVersion: the survey's version the run was made with, when known.
    public func facts(of run: TaskRun, status: String, version: Int, surveyVersion: String?) -> RunFacts {
        let reader = reader(for: surveyVersion)
        var facts = RunFacts(run: run.taskRunUUID, version: version, day: DashboardQuestion.dayNumber(of: run.startDate, in: timeZone),
                             status: status)
        for (step, arm) in run.arms ?? [:] { facts.labels[RunFacts.armLabel(step)] = arm }
        for (name, value) in run.parameters ?? [:] { facts.labels[RunFacts.parameterLabel(name)] = value }
        facts.steps = steps(of: run)
        let answers = reader.exporting.answers(of: run)
        var lastVisit: [String: StepVisit] = [:]
        for visit in run.path { lastVisit[visit.stepIdentifier] = visit }
        for question in reader.questions {
            if question.isInstanceCount {
                facts.answers += rows(question, answers.outcome(step: question.step, question: question.question, count: true))
            } else if question.isRepeated {
                // Each instance the run has; with none, the first, which says why as the export's first column does.
                for instance in 1...max(lastVisit[question.step]?.instanceCount ?? 0, 1) {
                    facts.answers += rows(question, answers.outcome(step: question.step, question: question.question, instance: instance))
                }
            } else {
                facts.answers += rows(question, answers.outcome(step: question.step, question: question.question))
            }
        }
        return facts
    }

    private func rows(_ question: DashboardQuestion, _ outcome: RunAnswers.Outcome) -> [AnswerFact] {
        switch outcome {
        case .missing(let reason): return [AnswerFact(key: question.key, outcome: reason.rawValue)]
        case .answered(let result):
            guard let answer = result.answer else { return [AnswerFact(key: question.key, outcome: MissingReason.skipped.rawValue)] }
            return question.facts(for: answer, timeZone: timeZone)
        }
    }

    /// The steps on the run's final path, each once (its last visit), in the order first reached.
    private func steps(of run: TaskRun) -> [StepFact] {
        var order: [String] = []
        var last: [String: StepVisit] = [:]
        for visit in run.path {
            if last[visit.stepIdentifier] == nil { order.append(visit.stepIdentifier) }
            last[visit.stepIdentifier] = visit
        }
        let stop = run.finishReason == .completed ? nil : run.path.last?.stepIdentifier
        return order.map { step in
            let visit = last[step]!
            let seconds = visit.endDate.map { Int(max(0, $0.timeIntervalSince(visit.startDate)).rounded()) }
            return StepFact(step: step, seconds: seconds, stopped: step == stop)
        }
    }
}
