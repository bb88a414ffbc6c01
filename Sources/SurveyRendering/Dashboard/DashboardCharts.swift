import Foundation
import SurveyAnalysis
import SurveyCore

/// The dashboard's charts, made from its report: runs over time, the funnel, the time on each
/// step, and a chart per question with its missing answers by reason.
public struct DashboardCharts: Sendable {
    public let charts: [DashboardChart]

    public init(report: DashboardReport, pages: SurveyPages) {
        let plain: (LocalizedText?) -> String = { pages.texts.plain($0, language: pages.languages[0], fallback: pages.languages) ?? "" }
        var charts = [Self.runs(report), Self.funnel(report)]
        if !report.times.isEmpty { charts.append(Self.times(report)) }
        for question in report.questions {
            charts.append(Self.question(question, task: pages.task, plain: plain))
        }
        self.charts = charts
    }

    /// The chart a download names (`runs`, `funnel`, `times`, `questions/KEY`).
    public func chart(file: String) -> DashboardChart? { charts.first { $0.file == file } }

    static func words(_ key: String) -> String { DashboardWords[key] }

    static func day(_ number: Int) -> String { CalendarDate(dayNumber: number)?.description ?? String(number) }

    static func runs(_ report: DashboardReport) -> DashboardChart {
        let title = words(report.byWeek ? "runsByWeek" : "runsByDay")
        let labels = report.periods.map { day($0.firstDay) }
        let series = report.statuses.map { status in
            ChartDrawing.Series(name: words(status), colour: DashboardWords.colours[status] ?? ChartDrawing.ink,
                                values: report.periods.map { Double($0.counts[status] ?? 0) })
        }
        let rows = report.periods.map { period in
            [day(period.firstDay)] + report.statuses.map { String(period.counts[$0] ?? 0) } + [String(period.total)]
        }
        return DashboardChart(id: "chart-runs", file: "runs", title: title, note: words("runsNote"),
                              svg: report.periods.isEmpty ? nil : ChartDrawing.columns(series, labels: labels, id: "chart-runs", title: title),
                              columns: [words("period")] + report.statuses.map(words) + [words("all")], rows: rows)
    }

    static func funnel(_ report: DashboardReport) -> DashboardChart {
        let title = words("funnel")
        let stoppedStatuses = DashboardReport.statusOrder.filter { status in report.funnel.contains { $0.stopped[status] != nil } }
        let bars = report.funnel.map { step in
            let stopped = step.stopped.values.reduce(0, +)
            return ChartDrawing.Bar(label: step.step, value: Double(step.reached),
                                    figure: stopped > 0 ? "\(step.reached) (\(stopped) \(words("stoppedHere").lowercased()))" : String(step.reached))
        }
        let rows = report.funnel.map { step in
            [step.step, String(step.reached), String(step.stopped.values.reduce(0, +))] + stoppedStatuses.map { String(step.stopped[$0] ?? 0) }
        }
        return DashboardChart(id: "chart-funnel", file: "funnel", title: title, note: words("funnelNote"),
                              svg: ChartDrawing.bars(bars, id: "chart-funnel", title: title),
                              columns: [words("step"), words("reached"), words("stoppedHere")]
                                + stoppedStatuses.map { "\(words("stoppedHere")): \(words($0))" },
                              rows: rows)
    }

    static func times(_ report: DashboardReport) -> DashboardChart {
        let title = words("times")
        let bars = report.times.map { time in
            ChartDrawing.Bar(label: time.step, value: Double(time.median), figure: "\(time.median) s, 90%: \(time.ninetieth) s",
                             mark: Double(time.ninetieth))
        }
        return DashboardChart(id: "chart-times", file: "times", title: title, note: words("timesNote"),
                              svg: ChartDrawing.bars(bars, id: "chart-times", title: title),
                              columns: [words("step"), words("timed"), words("median"), words("ninetieth")],
                              rows: report.times.map { [$0.step, String($0.count), String($0.median), String($0.ninetieth)] })
    }
}
