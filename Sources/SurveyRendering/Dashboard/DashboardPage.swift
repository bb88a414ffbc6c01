import Foundation
import Mustache
import SurveyAnalysis
import SurveyCore

/// The dashboard's pages, from the `page` layout: the list of surveys, and one survey's
/// filters and charts, each chart with its table and downloads.
public enum DashboardPage {
    static func render(_ kind: String, title: String, values: [String: Any], library: MustacheLibrary) -> String {
        var context: [String: Any] = [
            "lang": "en", "dir": "ltr", "title": title, "surveyTitle": DashboardWords["dashboard"], "wide": true,
            "words": Catalog(language: "en").wordsContext, "dw": DashboardWords.words, "is_" + kind: true, "titlePrefix": "",
            "errorSummary": "", "backStart": "<!--", "backEnd": "-->", "panel": "",
        ]
        for (key, value) in values { context[key] = value }
        return library.render(context, withTemplate: "page") ?? ""
    }

    /// The surveys served, each a link to its dashboard.
    public static func index(surveys: [SurveyPages], library: MustacheLibrary) -> String {
        let entries = surveys.sorted { $0.task.identifier < $1.task.identifier }.map { pages -> [String: Any] in
            ["identifier": pages.task.identifier,
             "title": pages.texts.plain(pages.task.title, language: pages.languages[0], fallback: pages.languages) ?? pages.task.identifier]
        }
        return render("dashboardIndex", title: DashboardWords["surveys"], values: ["entries": entries, "hasEntries": !entries.isEmpty],
                      library: library)
    }

    /// One survey's dashboard.
    /// - Parameter countedAt: when the counts were read, in the survey's time zone.
    public static func survey(_ pages: SurveyPages, report: DashboardReport, charts: DashboardCharts, filters: DashboardFilters,
                              countedAt: String, library: MustacheLibrary) -> String {
        let survey = pages.task.identifier
        let query = filters.queryString
        let title = pages.texts.plain(pages.task.title, language: pages.languages[0], fallback: pages.languages) ?? survey
        let chartValues = charts.charts.map { $0.context(survey: survey, query: query) }
        var values: [String: Any] = [
            "survey": survey, "surveyName": title, "filters": filters.context(task: pages.task),
            "total": DashboardWords.sentence("total", String(report.runCount)), "noRuns": report.runCount == 0,
            "refreshed": DashboardWords.sentence("refreshed", countedAt),
            "overview": Array(chartValues.prefix(charts.charts.count - report.questions.count)),
            "questions": Array(chartValues.suffix(report.questions.count)),
        ]
        if !filters.errors.isEmpty { values["titlePrefix"] = "Error: " }
        return render("dashboard", title: "\(DashboardWords["dashboard"]): \(title)", values: values, library: library)
    }
}
