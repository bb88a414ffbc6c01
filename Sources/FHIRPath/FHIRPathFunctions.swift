import Foundation
import JSON

/// The functions of the supported subset.
///
/// `where`, `select`, `exists` and `all` evaluate their argument once per input item, with that item as
/// the focus; `iif` evaluates its arguments with the input as the focus, and only the branch it takes.
/// Plain arguments (`extension(url)`, `round(precision)`) are evaluated on the focus of the call.
extension FHIRPathEvaluator {
    mutating func call(_ function: FHIRPathFunction, on input: [FHIRPathValue], arguments: [FHIRPathNode],
              focus: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        let name = "The function '\(function.rawValue)'"
        switch function {
        case .where, .select, .exists, .all:
            return try iterate(function, input, arguments.first, name: name, at: position)
        case .empty: return [.boolean(input.isEmpty)]
        case .count: return [.integer(input.count)]
        case .first: return input.first.map { [$0] } ?? []
        case .last: return input.last.map { [$0] } ?? []
        case .distinct: return try distinct(input, at: position)
        case .sum: return try sum(input, name: name, at: position)
        case .iif:
            guard input.count <= 1 else { throw FHIRPathError("\(name) needs a single item as input, but it has \(input.count).", at: position) }
            if try truth(try evaluate(arguments[0], focus: input), of: name, at: position) == true {
                return try evaluate(arguments[1], focus: input)
            }
            return arguments.count == 3 ? try evaluate(arguments[2], focus: input) : []
        case .not:
            return try truth(input, of: name, at: position).map { [.boolean(!$0)] } ?? []
        case .extension:
            guard let url = try singleItem(try evaluate(arguments[0], focus: focus), name: name, at: position) else { return [] }
            guard case .string(let text) = url else { throw FHIRPathError("\(name) needs a string URL.", at: position) }
            try charge(input.count, at: position)
            var result: [FHIRPathValue] = []
            for item in input {
                for element in FHIRPathNavigation.child("extension", of: item) {
                    if case .node(.object(let object)) = element, object["url"] == .string(text) { result.append(element) }
                }
            }
            return result
        case .round, .abs, .toString, .toInteger, .toDecimal, .length:
            guard let item = try singleItem(input, name: name, at: position) else { return [] }
            return try convert(function, item, arguments: arguments, focus: focus, name: name, at: position)
        case .combine:
            // Both collections, in order, with nothing taken out (unlike `|`).
            let other = try evaluate(arguments[0], focus: focus)
            try admit(input.count + other.count, at: position)
            try charge(other.count, at: position)
            return input + other
        case .lower, .upper:
            guard let item = try singleItem(input, name: name, at: position) else { return [] }
            guard case .string(let text) = item else { throw FHIRPathError("\(name) works on a string, not \(item.typeDescription).", at: position) }
            try admitText(text.utf8.count, at: position)
            return [.string(function == .lower ? text.lowercased() : text.uppercased())]
        case .floor, .ceiling, .truncate, .sqrt, .secondsUntil:
            return try math(function, on: input, arguments: arguments, focus: focus, name: name, at: position)
        case .today: return [.date(environment.clock.today)]
        case .now: return [.dateTime(environment.clock.now)]
        case .answers: return try answers(of: input, at: position)
        case .ordinal: return try ordinals(of: input, at: position)
        case .children: return try children(of: input, at: position)
        case .descendants: return try descendants(of: input, at: position)
        case .repeat: return try repeated(arguments[0], from: input, at: position)
        case .power:
            guard let item = try singleItem(input, name: name, at: position),
                  let exponent = try singleItem(try evaluate(arguments[0], focus: focus), name: name, at: position) else { return [] }
            return try power(item, exponent, name: name, at: position)
        }
    }

    private mutating func iterate(_ function: FHIRPathFunction, _ input: [FHIRPathValue], _ argument: FHIRPathNode?,
                         name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        guard let argument else { return [.boolean(!input.isEmpty)] }
        var result: [FHIRPathValue] = []
        for item in input {
            try charge(1, at: position)
            let value = try evaluate(argument, focus: [item])
            if function == .select {
                try admit(result.count + value.count, at: position)
                try charge(value.count, at: position)
                result += value
                continue
            }
            let holds = try truth(value, of: name, at: position) == true
            switch function {
            case .exists where holds: return [.boolean(true)]
            case .all where !holds: return [.boolean(false)]
            case .where where holds: result.append(item)
            default: break
            }
        }
        switch function {
        case .exists: return [.boolean(false)]
        case .all: return [.boolean(true)]
        default: return result
        }
    }

    /// Integers add up to an integer, with any decimal to a decimal, quantities of one unit to a quantity.
    private mutating func sum(_ input: [FHIRPathValue], name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        try charge(input.count, at: position)
        var total: FHIRPathValue = .integer(0)
        for (offset, item) in input.enumerated() {
            if let (value, unit) = FHIRPathNavigation.quantity(of: item) {
                if offset == 0 {
                    total = .quantity(value, unit: unit)
                    continue
                }
            } else if FHIRPathOperators.number(item) == nil {
                throw FHIRPathError("\(name) adds numbers and quantities, but its input has \(item.typeDescription).", at: position)
            }
            guard let next = try FHIRPathOperators.arithmetic(.add, total, item, at: position) else { return [] }
            total = next
        }
        return [total]
    }

    private mutating func convert(_ function: FHIRPathFunction, _ item: FHIRPathValue, arguments: [FHIRPathNode], focus: [FHIRPathValue],
                         name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        let quantity = FHIRPathNavigation.quantity(of: item)
        switch function {
        case .round:
            var precision = 0
            if let argument = arguments.first {
                guard case .integer(let digits)? = try singleItem(try evaluate(argument, focus: focus), name: name, at: position),
                      digits >= 0 else { throw FHIRPathError("\(name) needs a precision that is a whole number, 0 or more.", at: position) }
                precision = digits
            }
            if let number = FHIRPathOperators.number(item) { return [.decimal(FHIRPathOperators.rounded(number, scale: precision))] }
            if let (value, unit) = quantity { return [.quantity(FHIRPathOperators.rounded(value, scale: precision), unit: unit)] }
        case .abs:
            switch item {
            case .integer(let number) where number != .min: return [.integer(Swift.abs(number))]
            case .decimal(let number): return [.decimal(Swift.abs(number))]
            default: if let (value, unit) = quantity { return [.quantity(Swift.abs(value), unit: unit)] }
            }
        case .length:
            if case .string(let text) = item { return [.integer(text.count)] }
        case .toString:
            switch item {
            case .string(let text), .date(let text), .dateTime(let text), .time(let text): return [.string(text)]
            case .boolean, .integer, .decimal: return [.string(item.description)]
            default: return quantity.map { [.string("\($0.0) '\($0.1)'")] } ?? []
            }
        case .toInteger:
            switch item {
            case .integer: return [item]
            case .boolean(let flag): return [.integer(flag ? 1 : 0)]
            case .string(let text) where Self.isNumeral(text, fraction: false): return Int(text).map { [.integer($0)] } ?? []
            default: return []
            }
        case .toDecimal:
            switch item {
            case .integer(let number): return [.decimal(Decimal(number))]
            case .decimal: return [item]
            case .boolean(let flag): return [.decimal(flag ? 1 : 0)]
            case .string(let text) where Self.isNumeral(text, fraction: true):
                return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map { [.decimal($0)] } ?? []
            default: return []
            }
        default:
            break
        }
        throw FHIRPathError("\(name) cannot be applied to \(item.typeDescription).", at: position)
    }

    /// The only input item, nil when empty; more than one is an error.
    func singleItem(_ items: [FHIRPathValue], name: String, at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        guard items.count <= 1 else { throw FHIRPathError("\(name) needs a single item, but it was given \(items.count).", at: position) }
        return items.first
    }

    /// `(+|-)?digits` and, with `fraction`, an optional `.digits`.
    private static func isNumeral(_ text: String, fraction: Bool) -> Bool {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || (fraction && parts.count == 2) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(FHIRPathCharacters.isDigit) }
    }
}
