import Foundation

/// Writes a `JSONValue` as text: pretty (two-space indent) for files, compact for storage.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        var output = ""
        write(value, into: &output, indent: pretty ? 0 : nil)
        if pretty { output.append("\n") }
        return output
    }

    public static func data(_ value: JSONValue, pretty: Bool = true) -> Data {
        Data(string(value, pretty: pretty).utf8)
    }

    /// The shortest text that reads back as the same number; integers have no fraction.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    private static func write(_ value: JSONValue, into output: inout String, indent: Int?) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .number(let number): output.append(Self.number(number))
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append("[]")
                return
            }
            output.append("[")
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(",") }
                newline(&output, indent.map { $0 + 1 })
                write(element, into: &output, indent: indent.map { $0 + 1 })
            }
            newline(&output, indent)
            output.append("]")
        case .object(let object):
            if object.isEmpty {
                output.append("{}")
                return
            }
            output.append("{")
            for (position, entry) in object.entries.enumerated() {
                if position > 0 { output.append(",") }
                newline(&output, indent.map { $0 + 1 })
                writeString(entry.key, into: &output)
                output.append(indent == nil ? ":" : ": ")
                write(entry.value, into: &output, indent: indent.map { $0 + 1 })
            }
            newline(&output, indent)
            output.append("}")
        }
    }

    private static func newline(_ output: inout String, _ indent: Int?) {
        guard let indent else { return }
        output.append("\n")
        output.append(String(repeating: "  ", count: indent))
    }

    private static func writeString(_ text: String, into output: inout String) {
        output.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{2028}": output.append("\\u2028")
            case "\u{2029}": output.append("\\u2029")
            default:
                if scalar.value < 0x20 {
                    output.append("\\u")
                    let hex = String(scalar.value, radix: 16)
                    output.append(String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }
}
