import Foundation
import JSON
import SurveyRendering
import SurveyStorage

/// A run's history as staff read it: every entry about the run, oldest first, with who did
/// what, the step, and the answers before and after. English only, like the other staff pages;
/// every value goes through the one escaper.
struct RunHistoryPage {
    let run: UUID
    let entries: [AuditEntry]

    var html: String {
        var rows = ""
        for entry in entries {
            let detail = (try? JSONParser.parse(entry.detail)) ?? .null
            let content = entry.content.flatMap { try? JSONParser.parse($0) }
            rows += "<tr><td>\(e(AuditEntry.timestamp(entry.atMillis)))</td><td>\(e(entry.action))</td><td>\(e(entry.actor))</td>"
            rows += "<td>\(e(Self.words(detail)))</td><td>\(e(Self.values(content, "before")))</td>"
            rows += "<td>\(e(entry.contentHash.isEmpty || content != nil ? Self.values(content, "after") : "(erased)"))</td></tr>\n"
        }
        let title = "History of run \(run.uuidString.lowercased())"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title><link rel="stylesheet" href="/survey.css"></head>
            <body><main class="govuk-width-container history">
            <h1>\(e(title))</h1>
            <p>Survey \(e(entries.first?.survey ?? "")). \(entries.count) entries from the audit log, oldest first; times in UTC.</p>
            <table>
            <caption>What was done to the run, by whom and when</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Action</th><th scope="col">By</th><th scope="col">Where</th>
            <th scope="col">Before</th><th scope="col">After</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </main></body></html>
            """
    }

    private func e(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// A detail object as `key: value` pairs.
    static func words(_ value: JSONValue) -> String {
        guard case .object(let object) = value else { return "" }
        return object.entries.compactMap { key, value in
            switch value {
            case .null: return nil
            case .string(let text): return "\(key): \(text)"
            default: return "\(key): \(JSONWriter.string(value, pretty: false))"
            }
        }.joined(separator: ", ")
    }

    /// The answers of one side of a change, as `question = answer` pairs.
    static func values(_ content: JSONValue?, _ side: String) -> String {
        guard case .object(let object)? = content else { return "" }
        guard case .array(let results)? = object[side] else { return side == "after" ? words(.object(object)) : "" }
        return results.compactMap { result -> String? in
            guard case .object(let fields) = result, case .string(let identifier)? = fields["identifier"] else { return nil }
            let answer = fields.entries.first { !["type", "identifier", "startDate", "endDate"].contains($0.key) }?.value
            return "\(identifier) = \(answer.map { JSONWriter.string($0, pretty: false) } ?? "(none)")"
        }.joined(separator: "; ")
    }
}
