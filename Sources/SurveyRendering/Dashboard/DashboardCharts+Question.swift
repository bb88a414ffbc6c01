import Foundation
import SurveyAnalysis
import SurveyCore

extension DashboardCharts {
    /// A question's chart: bars for choices, a histogram for numbers, days and times of day,
    /// none for text (counted only); its table and CSV end with the missing answers by reason.
    static func question(_ row: DashboardReport.Question, task: SurveyTask, plain: (LocalizedText?) -> String) -> DashboardChart {
        let question = row.question
        let text = questionText(question, task: task, plain: plain)
        let title = text.isEmpty ? question.key : "\(question.key): \(text)"
        let id = "chart-q-" + question.key
        var notes: [String] = []
        var columns = [words("answer"), words("count"), words("share")]
        var rows: [[String]] = []
        var svg: String?
        switch question.tally {
        case .choices(let multiple):
            var labels = Codebook.choices(of: question.format, plain: plain)
            if case .boolean(let format) = question.format {
                labels = [("true", format.yes.map(plain) ?? "Yes"), ("false", format.no.map(plain) ?? "No")]
            }
            if case .multipleValuePicker(let picker) = question.format {
                // A combination is named by its pickers' texts: "A / +" reads "A Rh+".
                labels = row.choices.keys.sorted().map { bucket in
                    let words = bucket.components(separatedBy: " / ").enumerated().map { index, value in
                        picker.pickers.indices.contains(index) ? picker.pickers[index].first { $0.value.formValue == value }.map { plain($0.text) } ?? value : value
                    }
                    return (bucket, words.joined(separator: " "))
                }
            }
            let known = Set(labels.map(\.0))
            labels += row.choices.keys.filter { !known.contains($0) }.sorted().map { ($0, $0) }
            let bars = labels.map { value, label in
                let count = row.choices[value] ?? 0
                return ChartDrawing.Bar(label: label == value ? label : "\(label) (\(value))", value: Double(count),
                                        figure: "\(count) (\(share(count, of: row.answered)))")
            }
            rows = bars.map { [$0.label, ChartDrawing.figure($0.value), share(Int($0.value), of: row.answered)] }
            svg = row.answered > 0 ? ChartDrawing.bars(bars, id: id, title: title) : nil
            if multiple { notes.append(words("choicesShare")) }
        case .numbers, .days, .minutes:
            columns = [words("bin"), words("binTo"), words("count")]
            if let (bins, counts) = row.histogram {
                let starts = (0...bins.count).map { binLabel(bins.origin + Double($0) * bins.width, question.tally) }
                rows = counts.indices.map { [starts[$0], starts[$0 + 1], String(counts[$0])] }
                svg = ChartDrawing.columns([ChartDrawing.Series(name: words("count"), colour: ChartDrawing.bar, values: counts.map(Double.init))],
                                           labels: Array(starts.dropLast()), id: id, title: title)
            }
        case .counted:
            columns = [words("answer"), words("count")]
            notes.append(words("countedOnly"))
        }
        if question.isRepeated { notes.append(words("repeated")) }
        // The answered count and each missing reason, under the answers.
        let width = columns.count
        func line(_ label: String, _ count: Int) -> [String] { [label, String(count)] + Array(repeating: "", count: width - 2) }
        rows.append(line(words("answered"), row.answered))
        for reason in MissingReason.allCases { rows.append(line("\(words("reason")) \(words(reason.rawValue))", row.missing[reason] ?? 0)) }
        notes.append(words("missingNote"))
        return DashboardChart(id: id, file: "questions/" + question.key, title: title, note: notes.joined(separator: " "), svg: svg,
                              columns: columns, rows: rows)
    }

    static func questionText(_ question: DashboardQuestion, task: SurveyTask, plain: (LocalizedText?) -> String) -> String {
        if question.isInstanceCount { return words("instances") }
        guard let step = task.step(question.step) else { return "" }
        switch step.kind {
        case .question(let content): return plain(content.question ?? step.title)
        case .form(let content):
            for item in content.items {
                if case .question(let item) = item, item.identifier == question.question { return plain(item.text) }
            }
            return ""
        default: return plain(step.title)
        }
    }

    static func share(_ count: Int, of total: Int) -> String {
        total > 0 ? "\(Int((Double(count) * 100 / Double(total)).rounded()))%" : "–"
    }

    static func binLabel(_ value: Double, _ tally: DashboardQuestion.Tally) -> String {
        switch tally {
        case .days: return day(Int(value.rounded()))
        case .minutes:
            let minutes = Int(value.rounded())
            return String(format: "%02d:%02d", minutes / 60, minutes % 60)
        default:
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
        }
    }
}
