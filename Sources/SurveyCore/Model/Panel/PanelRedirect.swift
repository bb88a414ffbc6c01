import Foundation
import JSON

/// Where a finished run sends its participant back to the panel: an address with `{name}`
/// placeholders for parameters, `{runId}` and `{code}`, each filled percent-encoded.
public struct PanelRedirect: Sendable, Hashable {
    public var url: String
    /// The code the panel expects for this ending (Prolific's completion code).
    public var code: String?

    public init(url: String, code: String? = nil) {
        self.url = url
        self.code = code
    }

    /// The names an address uses, in order.
    public var placeholders: [String] {
        var names: [String] = []
        var rest = url[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The address for one run; a parameter the run did not get is left empty.
    public func address(runID: UUID, parameters: [String: String]) -> String {
        var output = ""
        var rest = url[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            output += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            let value: String
            switch name {
            case "runId": value = runID.uuidString.lowercased()
            case "code": value = code ?? ""
            default: value = parameters[name] ?? ""
            }
            output += Self.encode(value)
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// Percent-encoding for a query value: everything but unreserved characters.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// The host an address names, lower-cased, when it is an absolute http or https URL.
    public var host: String? {
        guard let components = URLComponents(string: url.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              components.user == nil, components.password == nil, let host = components.host, !host.isEmpty else { return nil }
        return host.lowercased()
    }

    var json: JSONValue {
        var object = JSONObject([("url", .string(url))])
        object["code"] = code.map(JSONValue.string)
        return .object(object)
    }
}
