import Foundation

extension MarkupChecker {
    /// The elements and attributes the templates may emit; anything else stops the server.
    public static let templateAllowlist: [String: Set<String>] = {
        let rich: [String: Set<String>] = ["p": ["class", "id", "lang", "dir"], "br": [], "strong": [], "em": [], "b": [], "i": [],
                                           "u": [], "ul": ["class", "lang", "dir"], "ol": ["lang", "dir"], "li": [],
                                           "a": ["class", "href"], "span": ["lang", "dir"]]
        var allowed: [String: Set<String>] = [
            "html": ["lang", "dir"], "head": [], "meta": ["charset", "name", "content", "http-equiv"], "title": [], "link": ["rel", "href"],
            "body": ["class"], "header": ["class"], "footer": ["class"], "nav": ["class", "aria-label"], "main": ["id", "class", "tabindex"], "span": ["class", "id", "aria-hidden"],
            "output": ["id", "aria-labelledby"],
            "div": ["class", "id", "role", "tabindex", "autofocus", "hidden", "aria-hidden", "data-field", "data-label", "data-clear-label"],
            "form": ["class", "id", "method", "action", "novalidate", "autocomplete"],
            "input": ["type", "name", "value", "class", "id", "checked", "aria-describedby", "aria-invalid", "inputmode", "autocomplete",
                      "spellcheck", "maxlength", "placeholder"],
            "button": ["type", "class", "name", "value", "tabindex", "aria-hidden", "form", "lang", "dir"],
            "h1": ["class", "id", "tabindex", "autofocus"], "h2": ["class"], "label": ["class", "for"],
            "fieldset": ["class", "role", "aria-describedby"], "legend": ["class"],
            "select": ["class", "id", "name", "aria-invalid", "aria-describedby"], "option": ["value", "selected"],
            "textarea": ["class", "id", "name", "rows", "maxlength", "aria-describedby", "aria-invalid"],
            "img": ["class", "src", "alt"], "details": ["class"], "summary": ["class"], "section": ["class"],
            "dl": ["class"], "dt": ["class"], "dd": ["class"],
            "video": ["class", "src", "controls", "preload"], "track": ["kind", "src", "srclang", "label", "default"],
            // The signing page's drawing pad (its policy alone lets the script run) and a drawn signature shown back.
            "script": ["src"], "svg": ["class", "viewBox", "role", "aria-label"], "path": ["d"],
        ]
        // A link to a signed copy or the answers' PDF is a download.
        allowed["a", default: []].insert("download")
        for (element, attributes) in rich { allowed[element, default: []].formUnion(attributes) }
        return allowed
    }()
}
