import Foundation
import JSON
import SurveyAnalysis
import SurveyCore

/// The codebook of a survey: the run columns, then one entry per question column.
public struct Codebook: Sendable {
    public let layout: ExportLayout
    public let entries: [CodebookEntry]

    static let formulaNote = "Text beginning with = + - @, a tab or a carriage return has a ' added in front, so no spreadsheet runs it as a formula."

    /// The run columns every wide CSV begins with.
    public static let runColumns: [CodebookEntry] = [
        entry("run_id", "The run's identifier (a random UUID)", "run", .text),
        entry("participant_id", "The researcher's participant identifier, for runs made through the API", "run", .text,
              note: formulaNote),
        entry("status", "completed, saved, discarded or inProgress (left unfinished)", "run", .text),
        entry("survey_version", "The version of the survey file the run was made with (a hash of its definition)", "run", .text),
        entry("started", "When the run began, ISO 8601 with the survey's offset", "run", .date),
        entry("ended", "When the run ended, ISO 8601 with offset; empty while it has not", "run", .date),
        entry("duration_seconds", "Seconds from the start to the end, or to the last answer of a run that has not ended", "run", .number),
    ]

    /// The run columns of a survey that takes consent, after the others: what the participant
    /// signed and when, the signed copy's hash, a countersignature and a withdrawal.
    public static let consentColumns: [CodebookEntry] = [
        entry("consent_version", "The version of the consent document the run was signed under", "consent", .text),
        entry("consent_signed_at", "When the participant pressed Agree with their typed name, ISO 8601 with offset", "consent", .date),
        entry("consent_certified_at", "When the participant certified the copy of their consent", "consent", .date),
        entry("consent_copy_sha256", "The SHA-256 of the signed PDF copy made at certification", "consent", .text),
        entry("consent_countersigned_at", "When a member of staff countersigned", "consent", .date),
        entry("consent_countersigned_by", "The name the member of staff typed to countersign", "consent", .text, note: formulaNote,
              identifying: true),
        entry("consent_withdrawn_at", "When the participant withdrew their consent; empty while they have not", "consent", .date),
    ]

    static func entry(_ name: String, _ label: String, _ type: String, _ storage: CodebookEntry.Storage,
                              note: String = "", identifying: Bool = false) -> CodebookEntry {
        var entry = CodebookEntry(name: name, label: label, type: type, storage: storage, values: [], range: "", unit: "", optional: nil,
                                  shownWhen: "", note: note, takesMissingCodes: false)
        entry.identifying = identifying
        return entry
    }

    /// The run columns of this survey's wide CSV: the consent columns follow when it takes consent.
    public let runEntries: [CodebookEntry]

    /// The survey's codebook, its texts in `language` (else the survey's first): the run
    /// columns, the current version's question columns, then the columns that only older
    /// versions of the survey had (runs made with those versions fill them).
    /// - Parameter includeIdentifiers: keep the columns that identify the participant (the
    ///   signature's names, questions marked `identifying`); left out by default.
    /// - Parameter instanceCounts: how many instances of each repeating form get columns (the
    ///   most any exported run has).
    public init(task: SurveyTask, older: [(version: String, task: SurveyTask)] = [], language: String? = nil,
                includeIdentifiers: Bool = false, instanceCounts: [String: Int] = [:]) {
        layout = ExportLayout(task: task, instanceCounts: instanceCounts)
        let takesConsent = task.consentDocument != nil || older.contains { $0.task.consentDocument != nil }
        runEntries = (Self.runColumns + (takesConsent ? Self.consentColumns : []) + Self.panelColumns([task] + older.map(\.task)))
            .filter { includeIdentifiers || !$0.identifying }
        var entries = runEntries + Self.questionEntries(task, columns: layout.columns, language: language)
        var named = Set(entries.map(\.name))
        for (version, old) in older {
            let extra = ExportLayout(task: old, instanceCounts: instanceCounts).columns.filter { !named.contains($0.name) }
            for var entry in Self.questionEntries(old, columns: extra, language: language) {
                entry.note = ("Only in survey version \(version). " + entry.note).trimmingCharacters(in: .whitespaces)
                entries.append(entry)
                named.insert(entry.name)
            }
        }
        self.entries = entries.filter { includeIdentifiers || !$0.identifying }
    }

    /// The names of the wide CSV's question columns, in order.
    public var questionColumns: [String] { entries.dropFirst(runEntries.count).map(\.name) }

    /// The entries of some of a survey's question columns.
    static func questionEntries(_ task: SurveyTask, columns: [ExportColumn], language: String?) -> [CodebookEntry] {
        let texts = RichTextCache.build(for: task).cache
        let language = language ?? task.languages?.first ?? "en"
        let fallback = task.languages ?? []
        func plain(_ text: LocalizedText?) -> String { texts.plain(text, language: language, fallback: fallback) ?? "" }
        let graph = RuleGraph(task: task)
        let always = graph.alwaysShown(in: task)
        var entries: [CodebookEntry] = []
        for column in columns {
            guard let step = task.step(column.step) else { continue }
            let questionText: String
            switch step.kind {
            case .question(let content): questionText = plain(content.question ?? step.title)
            case .form(let content):
                let item = content.items.lazy.compactMap { item -> FormQuestion? in
                    if case .question(let question) = item, question.identifier == column.question { return question }
                    return nil
                }.first
                questionText = plain(item?.text ?? step.title)
            case .allocation: questionText = step.title.map(plain) ?? "The arm the allocation step \(step.identifier) assigned the run to"
            default: questionText = plain(step.title)
            }
            let choices = Self.choices(of: column.format, plain: plain)
            var label = questionText
            if let repeating = step.repeating {
                // "Medicine 2" after an instance's question; the count says what it counts.
                let name = plain(repeating.label)
                label = column.isInstanceCount ? "How many instances of \u{201C}\(name)\u{201D} were given (\(plain(step.title)))"
                    : "\(questionText) — \(name) \(column.instance ?? 0)"
            }
            var values: [(String, String)] = choices
            var storage = Self.storage(of: column)
            var note = ""
            switch column.part {
            case .choice(let value):
                label += " — " + (choices.first { $0.0 == value.formValue }?.1 ?? value.formValue)
                values = [("1", "ticked"), ("0", "not ticked")]
            case .other:
                label += " — other, as typed"
                values = []
            case .latitude: label += " — latitude"
            case .longitude: label += " — longitude"
            case .component(let position):
                if case .multipleValuePicker(let picker) = column.format, picker.pickers.indices.contains(position - 1) {
                    values = picker.pickers[position - 1].map { ($0.value.formValue, plain($0.text)) }
                }
                label += " — part \(position)"
            case .answer:
                if case .boolean(let format) = column.format {
                    values = [("1", format.yes.map(plain) ?? "Yes"), ("0", format.no.map(plain) ?? "No")]
                }
            }
            if storage == .number, !values.isEmpty, values.contains(where: { Double($0.0) == nil }) { storage = .text }
            if column.holdsText { note = Self.formulaNote }
            let unit = step.questions.first { $0.identifier == column.question }
                .flatMap { QuestionResult.make(for: $0, answer: nil, startDate: Date(), endDate: Date(), timeZone: .current).unit }
                ?? (column.format.resultType == .timeInterval ? "seconds" : "")
            var entry = CodebookEntry(
                name: column.name, label: label, type: column.format.typeName, storage: storage, values: values,
                range: Self.range(column), unit: column.part == .answer ? unit : "", optional: column.isOptional,
                shownWhen: ExportLayout.shownWhen(step: column.step, visibleIf: column.visibleIf, in: task, graph: graph, alwaysShown: always),
                note: note, takesMissingCodes: true)
            entry.identifying = column.isIdentifying
            entries.append(entry)
        }
        return entries
    }

    /// Values and labels of a choice-like format.
    static func choices(of format: AnswerFormat, plain: (LocalizedText?) -> String) -> [(String, String)] {
        switch format {
        case .textChoice(let choice): return choice.choices.map { ($0.value.formValue, plain($0.text)) }
        case .valuePicker(let picker): return picker.choices.map { ($0.value.formValue, plain($0.text)) }
        case .textScale(let scale): return scale.choices.map { ($0.value.formValue, plain($0.text)) }
        case .imageChoice(let image): return image.choices.map { ($0.value.formValue, plain($0.text ?? $0.imageAlt)) }
        case .boolean, .multipleValuePicker, .scale, .continuousScale, .numeric, .timeOfDay, .date, .timeInterval, .text,
             .email, .height, .weight, .age, .location, .ses:
            return []
        }
    }

    static func storage(of column: ExportColumn) -> CodebookEntry.Storage {
        if column.holdsText { return .text }
        switch column.part {
        case .choice, .latitude, .longitude: return .number
        case .other, .component: return .text
        case .answer:
            switch column.format.resultType {
            case .date, .timeOfDay: return .date
            case .text, .location: return .text
            default: return .number
            }
        }
    }

    static func range(_ column: ExportColumn) -> String {
        guard column.part == .answer, let range = column.format.range else { return "" }
        let low = range.lowerBound.isFinite ? JSONWriter.number(range.lowerBound) : ""
        let high = range.upperBound.isFinite ? JSONWriter.number(range.upperBound) : ""
        return low.isEmpty && high.isEmpty ? "" : "\(low)..\(high)"
    }

    /// The missing codes, as the codebook and the syntax files state them.
    public static var missingCodes: String {
        MissingReason.allCases.map { "\($0.code) = \($0.label)" }.joined(separator: "; ")
    }

    /// The codebook as CSV, one row per column of the wide CSV.
    public func csv() -> String {
        var text = CSV.record(["column", "label", "type", "storage", "values", "range", "unit", "optional", "shown_when", "missing_codes",
                               "identifying", "note"])
        for entry in entries {
            text += CSV.record([
                entry.name, CSV.protected(entry.label), entry.type, entry.storage.rawValue,
                CSV.protected(entry.values.map { "\($0.value)=\($0.label)" }.joined(separator: "; ")),
                entry.range, entry.unit, entry.optional.map { $0 ? "yes" : "no" } ?? "", CSV.protected(entry.shownWhen),
                entry.takesMissingCodes ? Self.missingCodes : "", entry.identifying ? "yes" : "no", entry.note,
            ])
        }
        return text
    }
}
