import Foundation
import SurveyAnalysis
import SurveyCore

/// The dashboard's filters as a researcher typed them in its form (a GET, so a filtered view
/// can be bookmarked): read into a query, with a message beside each field that cannot be
/// read; a field in error filters nothing, and its text is kept.
public struct DashboardFilters: Sendable {
    public var from = ""
    public var to = ""
    public var status = ""
    public var arm = ""
    public var parameter = ""
    public var value = ""
    /// Messages by field name.
    public var errors: [String: String] = [:]
    public var query: DashboardQuery

    /// The statuses the form offers.
    public static let statuses = DashboardReport.statusOrder

    public init(task: SurveyTask, items: [(name: String, value: String)]) {
        query = DashboardQuery(survey: task.identifier)
        for (name, value) in items {
            let value = value.trimmingCharacters(in: .whitespaces)
            switch name {
            case "from": from = value
            case "to": to = value
            case "status": status = value
            case "arm": arm = value
            case "parameter": parameter = value
            case "value": self.value = value
            default: break
            }
        }
        query.fromDay = day("from", from)
        query.toDay = day("to", to)
        if let first = query.fromDay, let last = query.toDay, first > last { errors["to"] = DashboardWords["badRange"]; query.toDay = nil }
        if !status.isEmpty {
            if Self.statuses.contains(status) { query.status = status } else { errors["status"] = DashboardWords["badStatus"] }
        }
        if !arm.isEmpty {
            if let (step, chosen) = Self.arms(of: task).first(where: { "\($0.step):\($0.arm)" == arm }).map({ ($0.step, $0.arm) }) {
                query.labels.append(DashboardQuery.Label(name: RunFacts.armLabel(step), value: chosen))
            } else {
                errors["arm"] = DashboardWords["badArm"]
            }
        }
        if !parameter.isEmpty {
            if task.parameter(parameter) == nil {
                errors["parameter"] = DashboardWords["badParameter"]
            } else if value.isEmpty {
                errors["value"] = DashboardWords["needValue"]
            } else {
                query.labels.append(DashboardQuery.Label(name: RunFacts.parameterLabel(parameter), value: value))
            }
        }
    }

    private mutating func day(_ field: String, _ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        guard let date = CalendarDate(text) else {
            errors[field] = DashboardWords["badDate"]
            return nil
        }
        return date.dayNumber
    }

    /// Every arm of every allocation step, as the form offers them.
    static func arms(of task: SurveyTask) -> [(step: String, arm: String)] {
        task.steps.flatMap { step -> [(step: String, arm: String)] in
            guard case .allocation(let content) = step.kind else { return [] }
            return content.arms.map { (step.identifier, $0.value) }
        }
    }

    /// The filters as a query string (`?from=…`), for the downloads' links; empty when none.
    public var queryString: String {
        let pairs = [("from", from), ("to", to), ("status", status), ("arm", arm), ("parameter", parameter), ("value", value)]
            .filter { !$0.1.isEmpty && errors[$0.0] == nil }
        guard !pairs.isEmpty else { return "" }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "?" + pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// The form's fields for the template.
    func context(task: SurveyTask) -> [String: Any] {
        func field(_ name: String, _ value: String) -> [String: Any] {
            var entry: [String: Any] = ["value": value]
            if let error = errors[name] { entry["error"] = error }
            return entry
        }
        let option = { (value: String, label: String, chosen: String) -> [String: Any] in
            ["value": value, "label": label, "selected": value == chosen]
        }
        return [
            "from": field("from", from), "to": field("to", to), "status": field("status", status), "arm": field("arm", arm),
            "parameter": field("parameter", parameter), "value": field("value", value),
            "statuses": Self.statuses.map { option($0, DashboardWords[$0], status) },
            "arms": Self.arms(of: task).map { option("\($0.step):\($0.arm)", "\($0.step): \($0.arm)", arm) },
            "hasArms": !Self.arms(of: task).isEmpty,
            "parameters": task.parameters.map { option($0.name, $0.name, parameter) },
            "hasParameters": !task.parameters.isEmpty,
            "hasErrors": !errors.isEmpty,
        ]
    }
}
