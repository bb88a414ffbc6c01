import Foundation
import JSON

/// The functions that walk a resource's tree (`children`, `descendants`, `repeat`) and `power`.
extension FHIRPathEvaluator {
    /// Every child of each element of the input, in the order of its keys; arrays flatten.
    mutating func children(of input: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        for item in input {
            guard case .node(.object(let object)) = item else { continue }
            for (key, value) in object.entries {
                let found = FHIRPathNavigation.values(of: value, key: key)
                try charge(found.count, at: position)
                try admit(result.count + found.count, at: position)
                result += found
            }
        }
        return result
    }

    /// The children of the input, their children, and so on (`repeat(children())`). A JSON
    /// tree has no cycles, so nothing is met twice and no comparison is needed.
    mutating func descendants(of input: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        var level = try children(of: input, at: position)
        while !level.isEmpty {
            try admit(result.count + level.count, at: position)
            result += level
            level = try children(of: level, at: position)
        }
        return result
    }

    /// The projection applied to the input, then to what it gave, and so on while it gives items
    /// not already in the result (compared with `=`), in the order found.
    mutating func repeated(_ projection: FHIRPathNode, from input: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        var pending = input[...]
        while let item = pending.popFirst() {
            try charge(1, at: position)
            for found in try evaluate(projection, focus: [item]) {
                try charge(result.count, at: position)
                guard !result.contains(where: { FHIRPathOperators.equal($0, found) == true }) else { continue }
                try admit(result.count + 1, at: position)
                result.append(found)
                pending.append(found)
            }
        }
        return result
    }

    /// The number raised to the exponent: an integer when both are integers and the exponent is
    /// 0 or more (empty when it would not fit), else a decimal; empty when there is no real
    /// result (−1 to the power 0.5).
    func power(_ base: FHIRPathValue, _ exponent: FHIRPathValue, name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        if case .integer(let whole) = base, case .integer(let times) = exponent, times >= 0 {
            switch whole {
            case 0: return [.integer(times == 0 ? 1 : 0)]
            case 1: return [.integer(1)]
            case -1: return [.integer(times % 2 == 0 ? 1 : -1)]
            default:
                // Any other base overflows within 63 multiplications.
                var result = 1
                for _ in 0..<times {
                    let (product, overflow) = result.multipliedReportingOverflow(by: whole)
                    if overflow { return [] }
                    result = product
                }
                return [.integer(result)]
            }
        }
        guard let number = FHIRPathOperators.number(base), let power = FHIRPathOperators.number(exponent) else {
            let offender = FHIRPathOperators.number(base) == nil ? base : exponent
            throw FHIRPathError("\(name) works on numbers, not \(offender.typeDescription).", at: position)
        }
        let value = Foundation.pow(NSDecimalNumber(decimal: number).doubleValue, NSDecimalNumber(decimal: power).doubleValue)
        guard value.isFinite else { return [] }
        return [.decimal(Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(value))]
    }
}
