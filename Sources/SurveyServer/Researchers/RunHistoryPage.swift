import Foundation
import JSON
import SurveyCore
import SurveyRendering
import SurveyStorage

/// A run's history as staff read it: every entry about the run, oldest first, with who did
/// what, the step, and the answers before and after; and the form that asks for it. English
/// only, like the preview's pages; every value goes through the one escaper.
struct RunHistoryPage {
    let run: UUID
    let entries: [AuditEntry]

    /// The form a member of staff fills with a run's identifier and an API token.
    static func form(csrf: String, run: String, error: (field: String, message: String)?) -> String {
        func e(_ text: String) -> String { HTMLEscaping.escape(text) }
        func group(_ id: String, _ label: String, _ hint: String, _ input: String) -> String {
            let failed = error?.field == id
            let message = failed ? "<p class=\"error-message\" id=\"\(id):error\"><span class=\"visually-hidden\">Error:</span> \(e(error!.message))</p>" : ""
            return """
                <div class="form-group\(failed ? " form-group--error" : "")"><label class="label" for="\(id)">\(label)</label>
                <div class="hint" id="\(id):hint">\(hint)</div>\(message)
                <input class="input\(failed ? " input--error" : "")" id="\(id)" name="\(id)" \(input) aria-describedby="\(id):hint\(failed ? " \(id):error" : "")" /></div>
                """
        }
        return page(title: "A run's history", body: """
            <h1 class="heading-l">A run's history</h1>
            <p class="body">What was answered, changed and when, by whom, from the audit log. For staff holding the researcher API's token; each look is recorded.</p>
            <form method="post" action="/staff/history" novalidate="novalidate">
            <input type="hidden" name="_csrf" value="\(e(csrf))" />
            \(group("run", "Run identifier", "As the API and the exports give it, such as 3f0c…-…", "type=\"text\" value=\"\(e(run))\" autocomplete=\"off\" spellcheck=\"false\""))
            \(group("token", "API token", "The researcher API's bearer token.", "type=\"password\" autocomplete=\"current-password\""))
            <div class="button-group"><button type="submit" class="button">Show the history</button></div>
            </form>
            """)
    }

    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>\(HTMLEscaping.escape(title))</title><link rel="stylesheet" href="/survey.css" /></head>
        <body><main class="width-container" id="main">
        \(body)
        </main></body></html>
        """
    }

    var html: String {
        var rows = ""
        for entry in entries {
            let detail = (try? JSONParser.parse(entry.detail)) ?? .null
            let content = entry.content.flatMap { try? JSONParser.parse($0) }
            rows += "<tr><td>\(e(entry.timestamp))</td><td>\(e(entry.action))</td><td>\(e(entry.actor))</td>"
            rows += "<td>\(e(Self.words(detail)))</td><td>\(e(Self.values(content, "before")))</td>"
            rows += "<td>\(e(entry.contentHash.isEmpty || content != nil ? Self.values(content, "after") : "(erased)"))</td></tr>\n"
        }
        let title = "History of run \(run.uuidString.lowercased())"
        return Self.page(title: title, body: """
            <h1 class="heading-l">\(e(title))</h1>
            <p class="body">Survey \(e(entries.first?.survey ?? "")). \(entries.count) entries from the audit log, oldest first; times in UTC.</p>
            <div class="history"><table>
            <caption>What was done to the run, by whom and when</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Action</th><th scope="col">By</th><th scope="col">Where</th>
            <th scope="col">Before</th><th scope="col">After</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table></div>
            """)
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

    /// The answers of one side of a change, as `question = answer` pairs, the answer as the
    /// result format writes it; other content (names, parameters) as `key: value` pairs.
    static func values(_ content: JSONValue?, _ side: String) -> String {
        guard case .object(let object)? = content else { return "" }
        guard case .array(let stored)? = object[side] else { return side == "after" ? words(.object(object)) : "" }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let results = try? decoder.decode([QuestionResult].self, from: JSONWriter.data(.array(stored), pretty: false)) else { return "" }
        let utc = TimeZone(identifier: "UTC")!
        return results.map { result in
            guard case .object(let fields) = result.json(in: utc),
                  let answer = fields.entries.first(where: { !["type", "identifier", "startDate", "endDate"].contains($0.key) })?.value else {
                return "\(result.identifier) = (none)"
            }
            return "\(result.identifier) = \(JSONWriter.string(answer, pretty: false))"
        }.joined(separator: "; ")
    }
}
