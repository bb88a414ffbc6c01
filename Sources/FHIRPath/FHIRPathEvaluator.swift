import Foundation
import JSON

/// Evaluates a syntax tree over FHIR JSON. Every step yields a collection.
///
/// The focus is the collection that names, `$this` and calls without a base apply to: the resource
/// at the start, each item in turn inside `where`, `select`, `exists` and `all`.
///
/// One evaluator serves one evaluation and keeps its ``FHIRPathBudget``: `steps` counts up, one
/// addition and one comparison per step, and every collection and string built is measured before
/// it is kept, so an expression over budget stops at once.
struct FHIRPathEvaluator {
    let environment: FHIRPathEnvironment
    let budget: FHIRPathBudget
    /// Steps taken so far.
    private(set) var steps = 0

    init(environment: FHIRPathEnvironment, budget: FHIRPathBudget = .standard) {
        self.environment = environment
        self.budget = budget
    }

    /// Constants the specification defines for FHIR, available unless a variable of the same name is given.
    static let builtInConstants: [String: String] = [
        "ucum": "http://unitsofmeasure.org",
        "sct": "http://snomed.info/sct",
        "loinc": "http://loinc.org",
    ]
    /// Names that come from the environment's resources rather than its variables.
    static let environmentConstants: Set<String> = ["resource", "questionnaire", "context"]

    var rootFocus: [FHIRPathValue] {
        environment.resource.map { FHIRPathNavigation.values(of: $0, key: nil) } ?? []
    }

    /// The node's value on the focus: one step, and a collection within the budget.
    mutating func evaluate(_ node: FHIRPathNode, focus: [FHIRPathValue]) throws(FHIRPathError) -> [FHIRPathValue] {
        try charge(1, at: node.position)
        let result = try value(of: node, focus: focus)
        try admit(result.count, at: node.position)
        return result
    }

    // MARK: Budget

    /// Takes `count` steps; throws when that goes over the budget.
    @inline(__always)
    mutating func charge(_ count: Int, at position: Int) throws(FHIRPathError) {
        steps &+= count
        if steps > budget.steps { throw FHIRPathError(exceeding: .steps(budget.steps), at: position) }
    }

    /// Throws when a collection of `count` items would go over the budget.
    @inline(__always)
    func admit(_ count: Int, at position: Int) throws(FHIRPathError) {
        if count > budget.collectionSize { throw FHIRPathError(exceeding: .collectionSize(budget.collectionSize), at: position) }
    }

    /// Throws when a string of `bytes` UTF-8 bytes would go over the budget; building it costs a step per 32 bytes.
    mutating func admitText(_ bytes: Int, at position: Int) throws(FHIRPathError) {
        if bytes > budget.stringLength { throw FHIRPathError(exceeding: .stringLength(budget.stringLength), at: position) }
        try charge(bytes >> 5, at: position)
    }

    /// The strings a value holds that an operator built: a string's text, a quantity's unit.
    private mutating func admitBuilt(_ value: FHIRPathValue?, at position: Int) throws(FHIRPathError) {
        switch value {
        case .string(let text)?: try admitText(text.utf8.count, at: position)
        case .quantity(_, let unit)?: try admitText(unit.utf8.count, at: position)
        default: break
        }
    }

    // MARK: Nodes

    private mutating func value(of node: FHIRPathNode, focus: [FHIRPathValue]) throws(FHIRPathError) -> [FHIRPathValue] {
        switch node.kind {
        case .literal(let values):
            return values
        case .this:
            return focus
        case .constant(let name):
            return try constant(name, at: node.position)
        case .member(let name):
            var result: [FHIRPathValue] = []
            for item in focus {
                // A type name at the start of a path matches the resource of that type (`QuestionnaireResponse.item`).
                if case .node(.object(let object)) = item, name.first?.isUppercase == true, object["resourceType"] == .string(name) {
                    result.append(item)
                } else {
                    result += FHIRPathNavigation.child(name, of: item)
                }
            }
            try charge(focus.count + result.count, at: node.position)
            return result
        case .child(let base, let name):
            let items = try evaluate(base, focus: focus)
            var result: [FHIRPathValue] = []
            for item in items { result += FHIRPathNavigation.child(name, of: item) }
            try charge(items.count + result.count, at: node.position)
            return result
        case .call(let base, let function, let arguments):
            var input = focus
            if let base { input = try evaluate(base, focus: focus) }
            return try call(function, on: input, arguments: arguments, focus: focus, at: node.position)
        case .index(let base, let indexNode):
            let items = try evaluate(base, focus: focus)
            let position = try evaluate(indexNode, focus: focus)
            guard !position.isEmpty else { return [] }
            guard position.count == 1, case .integer(let index) = position[0] else {
                throw FHIRPathError("An index must be a single integer.", at: node.position)
            }
            return items.indices.contains(index) ? [items[index]] : []
        case .negate(let operand):
            let items = try evaluate(operand, focus: focus)
            guard let item = try single(items, of: "-", at: node.position) else { return [] }
            switch item {
            case .integer(let number) where number != .min: return [.integer(-number)]
            case .decimal(let number): return [.decimal(-number)]
            case .quantity(let number, let unit): return [.quantity(-number, unit: unit)]
            default: throw FHIRPathError("The operator '-' cannot negate \(item.typeDescription).", at: node.position)
            }
        case .binary(let op, let lhs, let rhs):
            return try binary(op, lhs, rhs, focus: focus, at: node.position)
        }
    }

    private func constant(_ name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        let json: JSONValue?
        switch name {
        case "resource": json = environment.resource
        case "questionnaire": json = environment.questionnaire
        case "context": json = environment.context ?? environment.resource
        default:
            if let values = environment.variables[name] { return values }
            if let text = Self.builtInConstants[name] { return [.string(text)] }
            throw FHIRPathError("The variable '%\(name)' has no value.", at: position)
        }
        return json.map { FHIRPathNavigation.values(of: $0, key: nil) } ?? []
    }

    // MARK: Operators

    private mutating func binary(_ op: FHIRPathOperator, _ lhs: FHIRPathNode, _ rhs: FHIRPathNode,
                        focus: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        switch op {
        case .and, .or, .xor, .implies:
            return try logic(op, lhs, rhs, focus: focus, at: position)
        default:
            break
        }
        let left = try evaluate(lhs, focus: focus)
        let right = try evaluate(rhs, focus: focus)
        switch op {
        case .union:
            try admit(left.count + right.count, at: position)
            return try distinct(left + right, at: position)
        case .concatenate:
            let a = try text(left, side: "left", at: position)
            let b = try text(right, side: "right", at: position)
            try admitText(a.utf8.count + b.utf8.count, at: position)
            return [.string(a + b)]
        case .equal, .notEqual:
            guard !left.isEmpty, !right.isEmpty else { return [] }
            guard left.count == right.count else { return [.boolean(op == .notEqual)] }
            try charge(left.count, at: position)
            var unknown = false
            for (a, b) in zip(left, right) {
                switch FHIRPathOperators.equal(a, b) {
                case false?: return [.boolean(op == .notEqual)]
                case nil: unknown = true
                case true?: continue
                }
            }
            return unknown ? [] : [.boolean(op == .equal)]
        case .equivalent, .notEquivalent:
            return [.boolean(try equivalent(left, right, at: position) == (op == .equivalent))]
        case .in, .contains:
            let (element, collection) = op == .in ? (left, right) : (right, left)
            guard let item = try single(element, of: op.rawValue, at: position) else { return [] }
            try charge(collection.count, at: position)
            return [.boolean(collection.contains { FHIRPathOperators.equal(item, $0) == true })]
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            guard let a = try single(left, of: op.rawValue, at: position),
                  let b = try single(right, of: op.rawValue, at: position),
                  let order = try FHIRPathOperators.compare(a, b, op, at: position) else { return [] }
            switch op {
            case .less: return [.boolean(order == .orderedAscending)]
            case .greater: return [.boolean(order == .orderedDescending)]
            case .lessOrEqual: return [.boolean(order != .orderedDescending)]
            default: return [.boolean(order != .orderedAscending)]
            }
        default:
            guard let a = try single(left, of: op.rawValue, at: position),
                  let b = try single(right, of: op.rawValue, at: position) else { return [] }
            if op == .add, case .string(let x) = a, case .string(let y) = b { try admitText(x.utf8.count + y.utf8.count, at: position) }
            let result = try FHIRPathOperators.arithmetic(op, a, b, at: position)
            try admitBuilt(result, at: position)
            return result.map { [$0] } ?? []
        }
    }

    /// `and`, `or`, `xor`, `implies` by the three-valued tables, empty standing for unknown.
    /// The right side is not evaluated when the left side decides.
    private mutating func logic(_ op: FHIRPathOperator, _ lhs: FHIRPathNode, _ rhs: FHIRPathNode,
                       focus: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        let a = try truth(try evaluate(lhs, focus: focus), of: "The operator '\(op.rawValue)'", at: position)
        switch (op, a) {
        case (.and, false?): return [.boolean(false)]
        case (.or, true?): return [.boolean(true)]
        case (.implies, false?): return [.boolean(true)]
        default: break
        }
        let b = try truth(try evaluate(rhs, focus: focus), of: "The operator '\(op.rawValue)'", at: position)
        let result: Bool?
        switch op {
        case .and: result = b == false ? false : (a == true && b == true ? true : nil)
        case .or: result = b == true ? true : (a == false && b == false ? false : nil)
        case .xor: result = a.flatMap { a in b.map { a != $0 } }
        default: result = b == true ? true : (a == true ? b : nil)
        }
        return result.map { [.boolean($0)] } ?? []
    }

    // MARK: Collections

    /// The truth of a collection where a boolean is expected: empty is unknown (nil), one boolean is itself,
    /// and — following the specification's singleton evaluation — one item of any other type counts as true.
    /// More than one item is an error.
    func truth(_ items: [FHIRPathValue], of what: String, at position: Int) throws(FHIRPathError) -> Bool? {
        guard let item = items.first else { return nil }
        guard items.count == 1 else {
            throw FHIRPathError("\(what) expects a single boolean, but the collection has \(items.count) items.", at: position)
        }
        if case .boolean(let flag) = item { return flag }
        return true
    }

    /// The only item, nil when empty; more than one item is an error.
    func single(_ items: [FHIRPathValue], of what: String, at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        guard items.count <= 1 else {
            throw FHIRPathError("The operands of '\(what)' must be single items, but one has \(items.count).", at: position)
        }
        return items.first
    }

    /// The items without repeats, in order; each comparison is a step.
    mutating func distinct(_ items: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        for item in items {
            try charge(result.count, at: position)
            if !result.contains(where: { FHIRPathOperators.equal($0, item) == true }) { result.append(item) }
        }
        return result
    }

    /// An operand of `&`: empty counts as the empty string.
    private func text(_ items: [FHIRPathValue], side: String, at position: Int) throws(FHIRPathError) -> String {
        guard let item = try single(items, of: "&", at: position) else { return "" }
        guard case .string(let text) = item else {
            throw FHIRPathError("The operator '&' joins strings, but its \(side) operand is \(item.typeDescription).", at: position)
        }
        return text
    }

    /// `~` on collections: the same count, each item equivalent to a different item of the other, in any order.
    private mutating func equivalent(_ left: [FHIRPathValue], _ right: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> Bool {
        guard left.count == right.count else { return false }
        var unmatched = right
        for item in left {
            try charge(unmatched.count, at: position)
            guard let index = unmatched.firstIndex(where: { FHIRPathOperators.equivalent(item, $0) }) else { return false }
            unmatched.remove(at: index)
        }
        return true
    }
}
