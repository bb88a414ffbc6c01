import Foundation

/// The dashboard's own words. Like the preview, it is the researcher's tool and speaks
/// English; its words live here, in one table.
public enum DashboardWords {
    static let words: [String: String] = [
        "dashboard": "Dashboard", "dashboards": "Dashboards", "surveys": "Each survey's dashboard",
        "noSurveys": "No survey is served.", "runs": "Runs started", "runsByDay": "Runs started by day, by status",
        "runsByWeek": "Runs started by week (from Monday), by status", "funnel": "Where runs reached and where they stopped",
        "times": "Time on each step", "questions": "Answers", "total": "Runs counted: %1$@",
        "filters": "Filters", "from": "Started on or after", "to": "Started on or before", "dateHint": "As 2026-11-28",
        "status": "Status", "anyStatus": "Any status", "arm": "Arm", "anyArm": "Any arm", "parameter": "URL parameter",
        "anyParameter": "No parameter", "value": "Parameter's value", "apply": "Show", "clear": "Clear the filters",
        "downloadSVG": "Picture (SVG)", "tableLabel": "the figures", "downloadCSV": "Numbers (CSV)", "noRuns": "No runs match.",
        "period": "Period", "all": "All", "step": "Step", "reached": "Reached", "stoppedHere": "Stopped here", "timed": "Timed",
        "median": "Median (s)", "ninetieth": "90th percentile (s)", "answer": "Answer", "count": "Count", "share": "Share",
        "bin": "From", "binTo": "To (not including)", "reason": "Missing, because", "answered": "Answered",
        "countedOnly": "Text answers are counted, never shown here.", "repeated": "Every instance of the repeating form counted.",
        "instances": "Instances of the repeating form", "choicesShare": "Shares are of the runs that answered.",
        "runsNote": "Discarded runs (deleted by their participant, or left idle on a kiosk) are counted here on the day they began, from the audit log; their answers are gone, so no other chart counts them, and a filter by arm or URL parameter leaves them out.",
        "funnelNote": "A run reached a step when the step is on its final path (after any Back); runs that stopped without completing are counted where they stopped, by status.",
        "timesNote": "Seconds from the page shown to its answer, on the final path; the bar is the median, the line the 90th percentile.",
        "missingNote": "Missing answers by reason, as the exports classify them.",
        "badDate": "Enter a date as 2026-11-28", "badRange": "The first day must not be after the last",
        "badStatus": "Choose a status from the list", "badArm": "Choose an arm from the list",
        "badParameter": "Choose a parameter the survey declares", "needValue": "Enter the parameter's value",
        "refreshed": "Counts as of %1$@, from the runs the store holds.",
        // Statuses, as the exports name them.
        "completed": "completed", "inProgress": "in progress", "saved": "saved", "discarded": "discarded", "declined": "declined",
        "screenedOut": "screened out", "quotaFull": "quota full", "earlyTermination": "ended early", "failed": "failed",
        // Missing reasons.
        "not_shown": "not shown", "skipped": "skipped", "dont_know": "don't know", "not_reached": "not reached",
    ]

    public static subscript(key: String) -> String { words[key] ?? key }

    static func sentence(_ key: String, _ values: String...) -> String {
        Catalog.fill(template: self[key], values)
    }

    /// Each status's colour in the charts.
    static let colours: [String: String] = [
        "completed": "#00703c", "inProgress": "#1d70b8", "saved": "#4c2c92", "discarded": "#d4351c", "declined": "#b58840",
        "screenedOut": "#505a5f", "quotaFull": "#6f777b", "earlyTermination": "#912b88", "failed": "#0b0c0c",
    ]
}
