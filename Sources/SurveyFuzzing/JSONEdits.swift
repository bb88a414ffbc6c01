import JSON
import SurveyCore

/// Edits of a JSON tree chosen by bytes: a structure-aware mutator, so that inputs stay valid
/// JSON and reach the reader and the checker instead of stopping at the parser.
enum JSONEdits {
    /// Values that break assumptions: bounds, empties, the engine's own names, other types.
    static let odd: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-1), .number(1), .number(7), .number(0.5), .number(-0.0),
        .number(1e308), .number(-1e308), .number(4_294_967_296), .number(Double(Int.max)), .number(1e-300),
        .string(""), .string("$end"), .string("0"), .string("-1"), .string("a"), .string("2026-02-30"), .string("24:00"),
        .string("Europe/Nowhere"), .string("\u{202E}rtl"), .string("e\u{301}"), .string("😀"), .string("<b>x</b>"),
        .array([]), .object(JSONObject()),
    ]

    static func apply(_ edits: inout ByteReader, to survey: JSONValue, pool: [String]) -> JSONValue {
        var tree = survey
        let count = 1 + edits.index(6)
        for _ in 0..<count where !edits.isEmpty {
            let path = choosePath(&edits, in: tree)
            let donor = subtree(at: choosePath(&edits, in: tree), in: tree)
            tree = edit(tree, at: path[...]) { value in replacement(&edits, for: value, donor: donor, pool: pool) }
        }
        return tree
    }

    /// A path into the tree: at each container the bytes choose a child or stop there.
    static func choosePath(_ edits: inout ByteReader, in tree: JSONValue) -> [Int] {
        var path: [Int] = []
        var node = tree
        while edits.byte() % 8 != 0 {
            switch node {
            case .array(let items) where !items.isEmpty:
                let index = edits.index(items.count)
                path.append(index)
                node = items[index]
            case .object(let object) where !object.isEmpty:
                let index = edits.index(object.entries.count)
                path.append(index)
                node = object.entries[index].value
            default:
                return path
            }
        }
        return path
    }

    static func subtree(at path: [Int], in tree: JSONValue) -> JSONValue {
        var node = tree
        for index in path {
            switch node {
            case .array(let items): node = items[index]
            case .object(let object): node = object.entries[index].value
            default: return node
            }
        }
        return node
    }

    static func edit(_ node: JSONValue, at path: ArraySlice<Int>, _ change: (JSONValue) -> JSONValue?) -> JSONValue {
        guard let index = path.first else { return change(node) ?? .null }
        let rest = path.dropFirst()
        switch node {
        case .array(var items):
            if rest.isEmpty, let changed = change(items[index]) { items[index] = changed } else if rest.isEmpty { items.remove(at: index) } else {
                items[index] = edit(items[index], at: rest, change)
            }
            return .array(items)
        case .object(let object):
            var entries = object.entries
            if rest.isEmpty, let changed = change(entries[index].value) { entries[index].value = changed } else if rest.isEmpty { entries.remove(at: index) } else {
                entries[index].value = edit(entries[index].value, at: rest, change)
            }
            return .object(JSONObject(entries))
        default:
            return node
        }
    }

    /// What a chosen value becomes; nil removes it from its container.
    static func replacement(_ edits: inout ByteReader, for value: JSONValue, donor: JSONValue, pool: [String]) -> JSONValue? {
        switch edits.index(8) {
        case 0: return nil
        case 1: return odd[edits.index(odd.count)]
        case 2: return donor
        case 3: return .string(pool[edits.index(pool.count)])
        case 4:
            if case .number(let number) = value { return .number(number + Double(edits.int())) }
            return .number(Double(edits.int()))
        case 5:
            if case .array(let items) = value, !items.isEmpty { return .array(items + [items[edits.index(items.count)]]) }
            if case .object(var object) = value { object[pool[edits.index(pool.count)]] = donor; return .object(object) }
            return .array([value])
        case 6:
            if case .string(let text) = value { return .string(String(text.reversed())) }
            return value
        default:
            if case .array(let items) = value { return .array(items.reversed()) }
            return odd[edits.index(odd.count)]
        }
    }
}
