import Foundation

/// Where a value sits in a survey file, written the JSONPath way: `$.steps[2].answerFormat.step`.
///
/// Keys that are not plain names (they hold a dot, a dash or start with a digit) are written
/// in brackets, `$.navigationRules["triage.v2"]`, so every path reads back unambiguously.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, Comparable {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document itself, `$`.
    public static let root = JSONPath()

    public func appending(_ key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    public static func / (path: JSONPath, key: String) -> JSONPath { path.appending(key) }
    public static func / (path: JSONPath, index: Int) -> JSONPath { path.appending(index) }

    /// The value kept for this path's longest prefix of `longest` down to `shortest` components:
    /// what a finding deep inside a step or an item is placed by.
    public func nearest<Value>(in places: [JSONPath: Value], longest: Int = 4, shortest: Int = 2) -> Value? {
        for length in stride(from: min(components.count, longest), through: shortest, by: -1) {
            if let found = places[JSONPath(Array(components.prefix(length)))] { return found }
        }
        return nil
    }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainName(key) {
                    text += "." + key
                } else {
                    text += "[\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
                }
            }
        }
        return text
    }

    /// The same place as an RFC 6901 JSON Pointer: `/steps/2/answerFormat/step`.
    public var pointer: String {
        components.map { component -> String in
            switch component {
            case .index(let index): return "/\(index)"
            case .key(let key): return "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }
        }.joined()
    }

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    public static func < (lhs: JSONPath, rhs: JSONPath) -> Bool {
        lhs.description < rhs.description
    }
}
