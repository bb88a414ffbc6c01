import Foundation
import SurveyCore

/// Writes a survey's runs in one export format, a piece at a time, so that any number of runs
/// is exported in bounded memory: `head()`, then `write(_:)` for each run, then `tail()`.
public final class Exporter {
    public struct Options: Sendable {
        /// A byte order mark first, so Excel reads the CSV as UTF-8.
        public var byteOrderMark = false
        /// Missing cells of the wide CSV hold their reason's code (for the R and SPSS syntax)
        /// instead of staying empty.
        public var missingCodes = false
        public init(byteOrderMark: Bool = false, missingCodes: Bool = false) {
            self.byteOrderMark = byteOrderMark
            self.missingCodes = missingCodes
        }
    }

    public let format: ExportFormat
    public let task: SurveyTask
    public let options: Options
    private let codebook: Codebook
    private let exporting: Exporting
    private let timeZone: TimeZone
    private let navigator: Navigator
    private let labels: ChoiceLabels
    private var written = 0

    public init(format: ExportFormat, task: SurveyTask, options: Options = Options()) {
        self.format = format
        self.task = task
        self.options = options
        codebook = Codebook(task: task)
        exporting = Exporting(task: task)
        navigator = Navigator(task: task)
        timeZone = navigator.timeZone
        labels = ChoiceLabels(task: task)
    }

    /// What comes before the first run: the header row, `[`, or the whole of a format that
    /// describes the survey only.
    public func head() -> String {
        let mark = options.byteOrderMark && [.csv, .long, .codebook].contains(format) ? "\u{FEFF}" : ""
        switch format {
        case .csv: return mark + CSV.record(codebook.entries.map(\.name))
        case .long: return mark + CSV.record(["run_id", "step", "item", "visit", "value", "label", "started", "ended", "seconds", "missing"])
        case .codebook: return mark + codebook.csv()
        case .r: return RSyntax(task: task, codebook: codebook).text
        case .spss: return SPSSSyntax(task: task, codebook: codebook).text
        case .json, .researchkit: return "["
        }
    }

    /// One run's rows, or its result.
    public func write(_ exported: ExportedRun) -> String {
        defer { written += 1 }
        switch format {
        case .csv: return wideRow(exported)
        case .long: return longRows(exported)
        case .json, .researchkit:
            var result = navigator.result(of: exported.run, now: exported.updatedAt)
            // A run saved for later reports `finishReason: saved`, as its result does.
            if exported.status == FinishReason.saved.rawValue, result.finishReason == nil { result.finishReason = .saved }
            let json = format == .json ? result.json(in: timeZone) : result.researchKitJSON(in: timeZone)
            return (written == 0 ? "\n" : ",\n") + JSONWriter.string(json, pretty: false)
        case .codebook, .r, .spss: return ""
        }
    }

    public func tail() -> String {
        switch format {
        case .json, .researchkit: return written == 0 ? "]\n" : "\n]\n"
        default: return ""
        }
    }

    // MARK: Wide

    private func instant(_ date: Date?) -> String {
        date.map { DateTimeParsing.string($0, in: timeZone) } ?? ""
    }

    private func wideRow(_ exported: ExportedRun) -> String {
        let run = exported.run
        let duration = (run.endDate ?? exported.updatedAt).timeIntervalSince(run.startDate)
        var fields = [
            run.taskRunUUID.uuidString.lowercased(), CSV.protected(exported.participant ?? ""), exported.status,
            instant(run.startDate), instant(run.endDate), JSONWriter.number((duration * 1000).rounded() / 1000),
        ]
        let cells = codebook.layout.cells(exporting.answers(of: run), timeZone: timeZone)
        for (column, cell) in zip(codebook.layout.columns, cells) {
            switch cell {
            case .value(let text): fields.append(column.holdsText ? CSV.protected(text) : text)
            case .missing(let reason): fields.append(options.missingCodes ? String(reason.code) : "")
            }
        }
        return CSV.record(fields)
    }

    // MARK: Long

    private func longRows(_ exported: ExportedRun) -> String {
        let run = exported.run
        let id = run.taskRunUUID.uuidString.lowercased()
        let answers = exporting.answers(of: run)
        var text = ""
        var visitsOfStep: [String: Int] = [:]
        var seen = Set<String>()
        for visit in run.path {
            visitsOfStep[visit.stepIdentifier, default: 0] += 1
            seen.insert(visit.stepIdentifier)
            let number = String(visitsOfStep[visit.stepIdentifier]!)
            let ended = visit.endDate
            let seconds = ended.map { JSONWriter.number(($0.timeIntervalSince(visit.startDate) * 1000).rounded() / 1000) } ?? ""
            let timing = [instant(visit.startDate), instant(ended), seconds]
            let questions = task.step(visit.stepIdentifier)?.questions ?? []
            if questions.isEmpty {
                text += CSV.record([id, visit.stepIdentifier, "", number, "", ""] + timing + [""])
            }
            for question in questions {
                let (value, label, missing) = longCells(question: question, in: visit)
                text += CSV.record([id, visit.stepIdentifier, question.identifier, number, value, label] + timing + [missing])
            }
        }
        // Questions the path never showed: why.
        for step in task.steps where !seen.contains(step.identifier) {
            for question in step.questions {
                guard case .missing(let reason) = answers.outcome(step: step.identifier, question: question.identifier) else { continue }
                text += CSV.record([id, step.identifier, question.identifier, "", "", "", "", "", "", reason.rawValue])
            }
        }
        return text
    }

    private func longCells(question: Step.Question, in visit: StepVisit) -> (String, String, String) {
        guard let result = visit.result(question.identifier) else {
            return ("", "", (visit.isAnswered ? MissingReason.notShown : .notReached).rawValue)
        }
        guard let answer = result.answer else { return ("", "", MissingReason.skipped.rawValue) }
        if answer == .dontKnow { return ("", "", MissingReason.dontKnow.rawValue) }
        let value = ExportLayout.plain(answer, timeZone: timeZone) ?? ""
        let label = labels.label(answer, format: question.answerFormat)
        let protectedValue = [.text, .location, .choice, .multipleComponent].contains(result.type) ? CSV.protected(value) : value
        return (protectedValue, CSV.protected(label), "")
    }
}

/// The survey's words for chosen values, in its first language.
struct ChoiceLabels {
    let texts: RichTextCache
    let language: String
    let fallback: [String]

    init(task: SurveyTask) {
        texts = RichTextCache.build(for: task).cache
        language = task.languages?.first ?? "en"
        fallback = task.languages ?? []
    }

    func label(_ answer: Answer, format: AnswerFormat) -> String {
        let plain: (LocalizedText?) -> String = { texts.plain($0, language: language, fallback: fallback) ?? "" }
        switch answer {
        case .boolean(let flag):
            guard case .boolean(let words) = format else { return "" }
            return flag ? (words.yes.map(plain) ?? "Yes") : (words.no.map(plain) ?? "No")
        case .choices(let values), .components(let values):
            var pairs = Codebook.choices(of: format, plain: plain)
            if case .multipleValuePicker(let picker) = format {
                pairs = picker.pickers.flatMap { $0.map { ($0.value.formValue, plain($0.text)) } }
            }
            return values.map { value in pairs.first { $0.0 == value.formValue }?.1 ?? value.formValue }.joined(separator: ";")
        default:
            return ""
        }
    }
}
