import Foundation

/// One chart of the dashboard: its picture, and the same figures as a table (beside the
/// picture for those who do not see it) and as CSV (for a report).
public struct DashboardChart: Sendable {
    /// Unique on the page; the download's file name.
    public let id: String
    /// The path under `/dashboard/{survey}/` its downloads take, without `.svg` or `.csv`.
    public let file: String
    public let title: String
    /// What the figures mean, when it needs saying.
    public let note: String?
    /// Nil for a question whose answers are only counted.
    public let svg: String?
    public let columns: [String]
    public let rows: [[String]]

    /// Labels a spreadsheet would read as a formula are guarded as in the exports; numbers
    /// (a histogram's bins may be negative) are left as they are.
    public var csv: String {
        CSV.record(columns) + rows.map { CSV.record($0.map { Double($0) == nil ? CSV.protected($0) : $0 }) }.joined()
    }

    /// The picture as a file of its own, for a report.
    public var svgFile: String? { svg.map(ChartDrawing.standalone) }

    /// The table, escaped, with its caption.
    var tableHTML: String {
        func e(_ text: String) -> String { HTMLEscaping.escape(text) }
        var html = "<table class=\"table\"><caption class=\"table__caption\">\(e(title))</caption><thead><tr>"
        for column in columns { html += "<th scope=\"col\">\(e(column))</th>" }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>"
            for (index, cell) in row.enumerated() { html += index == 0 ? "<th scope=\"row\">\(e(cell))</th>" : "<td>\(e(cell))</td>" }
            html += "</tr>"
        }
        return html + "</tbody></table>"
    }

    /// What the page's template shows of it.
    func context(survey: String, query: String) -> [String: Any] {
        var values: [String: Any] = ["id": id, "title": title, "table": tableHTML,
                                     "csv": "/dashboard/\(survey)/\(file).csv\(query)"]
        if let note { values["note"] = note }
        if let svg {
            values["svg"] = svg
            values["svgLink"] = "/dashboard/\(survey)/\(file).svg\(query)"
        }
        return values
    }
}
