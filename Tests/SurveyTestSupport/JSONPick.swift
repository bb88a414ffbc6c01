import JSON

/// One step of a path into the produced JSON: a key or an index.
public enum JSONStep: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}

/// The value at a path, nil when any step is missing.
public func pick(_ value: JSONValue?, _ path: JSONStep...) -> JSONValue? {
    var current = value
    for step in path {
        switch (step, current) {
        case (.key(let key), .object(let object)?): current = object[key]
        case (.index(let index), .array(let elements)?): current = elements.indices.contains(index) ? elements[index] : nil
        default: return nil
        }
    }
    return current
}
