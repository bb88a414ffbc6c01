import Foundation
import JSON
import SurveyAnalysis
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
        /// Keep the answers that identify the participant (signature names, questions marked
        /// `identifying`); every format leaves them out by default.
        public var includeIdentifiers = false
        public init(byteOrderMark: Bool = false, missingCodes: Bool = false, includeIdentifiers: Bool = false) {
            self.byteOrderMark = byteOrderMark
            self.missingCodes = missingCodes
            self.includeIdentifiers = includeIdentifiers
        }
    }

    public let format: ExportFormat
    public let task: SurveyTask
    public let options: Options
    private let codebook: Codebook
    /// Each version of the survey a run may have been made with, the current one included,
    /// made ready to read runs the first time one needs it.
    private var readers: [String: VersionReader] = [:]
    private let tasks: [String: SurveyTask]
    private let current: String
    /// Where each question column of the wide CSV sits in a row.
    private let positions: [String: Int]
    private var written = 0
    private let instanceCounts: [String: Int]

    /// - Parameter older: earlier versions of the survey, oldest first, whose runs the export
    ///   reads with the definition they were made with.
    /// - Parameter instanceCounts: how many instances of each repeating form the wide CSV, the
    ///   codebook and the syntax give columns to: the most any exported run has
    ///   (`ExportLayout.countInstances`), found by reading the runs once before.
    public init(format: ExportFormat, task: SurveyTask, older: [(version: String, task: SurveyTask)] = [], options: Options = Options(),
                instanceCounts: [String: Int] = [:]) {
        self.format = format
        self.task = task
        self.options = options
        self.instanceCounts = instanceCounts
        let others = older.filter { $0.version != task.version }
        codebook = Codebook(task: task, older: others, includeIdentifiers: options.includeIdentifiers, instanceCounts: instanceCounts)
        current = task.version
        var tasks = [current: task]
        for (version, old) in others { tasks[version] = old }
        self.tasks = tasks
        positions = Dictionary(uniqueKeysWithValues: codebook.questionColumns.enumerated().map { ($1, $0) })
    }

    /// How runs of one version are read.
    private struct VersionReader {
        let task: SurveyTask
        let layout: ExportLayout
        let exporting: Exporting
        let navigator: Navigator
        let labels: ChoiceLabels
        let surveyJSON: JSONValue
        let version: String

        init(task: SurveyTask, instanceCounts: [String: Int]) {
            surveyJSON = task.json
            version = task.version
            self.task = task
            layout = ExportLayout(task: task, instanceCounts: instanceCounts)
            exporting = Exporting(task: task)
            navigator = Navigator(task: task)
            labels = ChoiceLabels(task: task)
        }

        var timeZone: TimeZone { navigator.timeZone }
    }

    /// The reader of the version a run was made with; the current one for runs stored before
    /// versions were kept, or whose version is not known.
    private func reader(for exported: ExportedRun) -> VersionReader {
        let version = exported.surveyVersion.flatMap { tasks[$0] == nil ? nil : $0 } ?? current
        if let known = readers[version] { return known }
        let made = VersionReader(task: tasks[version]!, instanceCounts: instanceCounts)
        readers[version] = made
        return made
    }

    /// What comes before the first run: the header row, `[`, or the whole of a format that
    /// describes the survey only.
    public func head() -> String {
        let mark = options.byteOrderMark && [.csv, .long, .codebook].contains(format) ? "\u{FEFF}" : ""
        switch format {
        case .csv: return mark + CSV.record(codebook.entries.map(\.name))
        case .long: return mark + CSV.record(["run_id", "step", "item", "visit", "value", "label", "started", "ended", "seconds", "missing", "instance"])
        case .codebook: return mark + codebook.csv()
        case .r: return RSyntax(task: task, codebook: codebook).text
        case .spss: return SPSSSyntax(task: task, codebook: codebook).text
        case .json, .researchkit: return "["
        case .fhir: return #"{"resourceType":"Bundle","type":"collection""#
        case .fhirTransaction: return #"{"resourceType":"Bundle","type":"transaction""#
        }
    }

    /// One run's rows, or its result.
    public func write(_ exported: ExportedRun) -> String {
        defer { written += 1 }
        switch format {
        case .csv: return wideRow(exported)
        case .long: return longRows(exported)
        case .json, .researchkit:
            let reader = reader(for: exported)
            let timeZone = reader.timeZone
            var result = withoutIdentifiers(reader.navigator.result(of: exported.run, now: exported.updatedAt), reader: reader)
            // A run saved for later reports `finishReason: saved`, as its result does.
            if exported.status == FinishReason.saved.rawValue, result.finishReason == nil { result.finishReason = .saved }
            let json = format == .json ? result.json(in: timeZone) : result.researchKitJSON(in: timeZone)
            return (written == 0 ? "\n" : ",\n") + JSONWriter.string(json, pretty: false)
        case .fhir, .fhirTransaction:
            let reader = reader(for: exported)
            var result = withoutIdentifiers(reader.navigator.result(of: exported.run, now: exported.updatedAt), reader: reader)
            if exported.status == FinishReason.saved.rawValue, result.finishReason == nil { result.finishReason = .saved }
            let response = QuestionnaireResponseExport.response(survey: reader.surveyJSON, result: result.json(in: reader.timeZone),
                                                                surveyVersion: reader.version, context: exported.fhirContext)
            var entries: [JSONValue]
            if format == .fhir {
                entries = [.object(["fullUrl": .string("urn:uuid:" + exported.run.taskRunUUID.uuidString.lowercased()), "resource": response])]
            } else {
                entries = QuestionnaireResponseExport.transactionEntries(survey: reader.surveyJSON, response: response)
            }
            // A run's consent beside its answers, its signed copy named by the API's address.
            let copy = exported.run.consent?.copySHA256.map { sha256 in
                ConsentExport.Copy(sha256: exported.run.consent?.countersignature?.copySHA256 ?? sha256,
                                   url: "/api/v1/runs/\(exported.run.taskRunUUID.uuidString.lowercased())/consent.pdf", title: "Signed consent")
            }
            if let consent = ConsentExport.resource(task: reader.task, run: exported.run, context: exported.fhirContext, copy: copy,
                                                     timeZone: reader.timeZone) {
                entries.append(ConsentExport.entry(consent, transaction: format == .fhirTransaction))
            }
            // FHIR allows no empty array, so "entry" opens with the first run.
            return (written == 0 ? #","entry":["# + "\n" : ",\n") + entries.map { JSONWriter.string($0, pretty: false) }.joined(separator: ",\n")
        case .codebook, .r, .spss: return ""
        }
    }

    public func tail() -> String {
        switch format {
        case .json, .researchkit: return written == 0 ? "]\n" : "\n]\n"
        case .fhir, .fhirTransaction: return written == 0 ? "}\n" : "\n]}\n"
        default: return ""
        }
    }

    /// The result with the answers that identify the participant left out, unless the export asks for them.
    private func withoutIdentifiers(_ result: TaskResult, reader: VersionReader) -> TaskResult {
        options.includeIdentifiers ? result : result.withoutIdentifying(in: reader.task)
    }

    /// The consent and panel columns of a run, when the survey has them, in the codebook's order.
    private func consentFields(_ run: TaskRun, reader: VersionReader) -> [String] {
        let columns = codebook.runEntries.dropFirst(Codebook.runColumns.count)
        guard !columns.isEmpty else { return [] }
        let zone = reader.timeZone
        let consent = reader.navigator.consent(in: run)
        let status = run.consent
        var values = [
            "consent_version": consent == nil ? "" : reader.task.consentDocument?.version ?? "",
            "consent_signed_at": instant(consent?.signedAt, zone), "consent_certified_at": instant(consent?.certifiedAt, zone),
            "consent_copy_sha256": status?.copySHA256 ?? "", "consent_countersigned_at": instant(status?.countersignature?.signedAt, zone),
            "consent_countersigned_by": CSV.protected(status?.countersignature?.name ?? ""),
            "consent_withdrawn_at": instant(status?.withdrawnAt, zone),
        ]
        values.merge(Codebook.panelValues(run, task: reader.task)) { consent, _ in consent }
        return columns.map { values[$0.name] ?? "" }
    }

    // MARK: Wide

    private func instant(_ date: Date?, _ timeZone: TimeZone) -> String {
        date.map { DateTimeParsing.string($0, in: timeZone) } ?? ""
    }

    private func wideRow(_ exported: ExportedRun) -> String {
        let run = exported.run
        let reader = reader(for: exported)
        let zone = reader.timeZone
        let duration = (run.endDate ?? exported.updatedAt).timeIntervalSince(run.startDate)
        var fields = [
            run.taskRunUUID.uuidString.lowercased(), CSV.protected(exported.participant ?? ""), exported.status,
            exported.surveyVersion ?? "", instant(run.startDate, zone), instant(run.endDate, zone),
            JSONWriter.number((duration * 1000).rounded() / 1000),
        ] + consentFields(run, reader: reader)
        // A column the run's version did not have was not shown to its participant.
        let absent = options.missingCodes ? String(MissingReason.notShown.code) : ""
        var cells = [String](repeating: absent, count: positions.count)
        let values = reader.layout.cells(reader.exporting.answers(of: run), timeZone: zone)
        for (column, cell) in zip(reader.layout.columns, values) {
            guard let position = positions[column.name] else { continue }
            switch cell {
            case .value(let text): cells[position] = column.holdsText ? CSV.protected(text) : text
            case .missing(let reason): cells[position] = options.missingCodes ? String(reason.code) : ""
            }
        }
        return CSV.record(fields + cells)
    }

    // MARK: Long

    private func longRows(_ exported: ExportedRun) -> String {
        let run = exported.run
        let reader = reader(for: exported)
        let task = reader.task
        let zone = reader.timeZone
        let id = run.taskRunUUID.uuidString.lowercased()
        let answers = reader.exporting.answers(of: run)
        var text = ""
        // A panel's parameters first, a row each, named as rules name them (`parameters.NAME`).
        for (name, value) in (run.parameters ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += CSV.record([id, SurveyParameter.selectorStep, name, "", CSV.protected(value), "", "", "", "", "", ""])
        }
        var visitsOfStep: [String: Int] = [:]
        var seen = Set<String>()
        for visit in run.path {
            visitsOfStep[visit.stepIdentifier, default: 0] += 1
            seen.insert(visit.stepIdentifier)
            let number = String(visitsOfStep[visit.stepIdentifier]!)
            let ended = visit.endDate
            let seconds = ended.map { JSONWriter.number(($0.timeIntervalSince(visit.startDate) * 1000).rounded() / 1000) } ?? ""
            let timing = [instant(visit.startDate, zone), instant(ended, zone), seconds]
            let questions = task.step(visit.stepIdentifier)?.questions ?? []
            if questions.isEmpty {
                text += CSV.record([id, visit.stepIdentifier, "", number, "", ""] + timing + ["", ""])
            }
            // A repeating form: a row per instance and question, numbered from 1 in the last column.
            let instances: [(number: String, visit: StepVisit)] = visit.instances.map { list in
                list.enumerated().map { position, answers in
                    var instance = visit
                    instance.results = answers
                    return (String(position + 1), instance)
                }
            } ?? [("", visit)]
            for (instance, shown) in instances {
                for question in questions where options.includeIdentifiers || !question.behaviour.isIdentifying {
                    let (value, label, missing) = longCells(question: question, in: shown, reader: reader)
                    text += CSV.record([id, visit.stepIdentifier, question.identifier, number, value, label] + timing + [missing, instance])
                }
            }
        }
        // Questions the path never showed: why.
        for step in task.steps where !seen.contains(step.identifier) {
            for question in step.questions where options.includeIdentifiers || !question.behaviour.isIdentifying {
                guard case .missing(let reason) = answers.outcome(step: step.identifier, question: question.identifier) else { continue }
                text += CSV.record([id, step.identifier, question.identifier, "", "", "", "", "", "", reason.rawValue, ""])
            }
        }
        return text
    }

    private func longCells(question: Step.Question, in visit: StepVisit, reader: VersionReader) -> (String, String, String) {
        guard let result = visit.result(question.identifier) else {
            return ("", "", (visit.isAnswered ? MissingReason.notShown : .notReached).rawValue)
        }
        guard let answer = result.answer else { return ("", "", MissingReason.skipped.rawValue) }
        if answer == .dontKnow { return ("", "", MissingReason.dontKnow.rawValue) }
        let value = ExportLayout.plain(answer, timeZone: reader.timeZone) ?? ""
        let label = reader.labels.label(answer, format: question.answerFormat)
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
