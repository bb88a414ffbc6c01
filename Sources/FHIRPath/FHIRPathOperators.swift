import Foundation
import JSON

/// Equality, ordering and arithmetic on single values.
///
/// Integers and decimals meet as decimals. A string meets a date, date-time or time as one when it reads
/// as one, because FHIR JSON keeps dates in strings whose key does not always tell their type. A Quantity
/// element counts as a quantity, and a number next to a quantity counts as a quantity of unit '1'.
/// Units are not converted: quantities of different units compare as unknown (empty).
enum FHIRPathOperators {
    // MARK: Equality and order

    /// `=` on two items: nil when unknown (dates of different precision, quantities of different units).
    static func equal(_ lhs: FHIRPathValue, _ rhs: FHIRPathValue) -> Bool? {
        switch (lhs, rhs) {
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.node(let a), .node(let b)): return a == b
        default: break
        }
        if let a = number(lhs), let b = number(rhs) { return a == b }
        if let (a, b) = temporals(lhs, rhs) { return FHIRPathTemporal.compare(a, b).map { $0 == .orderedSame } }
        if let (a, b) = quantities(lhs, rhs) { return a.unit == b.unit ? a.value == b.value : nil }
        return false
    }

    /// `~` on two items: strings ignore case and runs of white space; decimals meet at the lesser precision.
    static func equivalent(_ lhs: FHIRPathValue, _ rhs: FHIRPathValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return normalized(a) == normalized(b)
        case (.decimal, _), (_, .decimal):
            guard let a = number(lhs), let b = number(rhs) else { return false }
            let scale = min(scaleOf(a), scaleOf(b))
            return rounded(a, scale: scale) == rounded(b, scale: scale)
        default:
            return equal(lhs, rhs) == true
        }
    }

    /// Orders two items for `<`, `>`, `<=`, `>=`: nil when unknown; throws when they cannot be ordered.
    static func compare(_ lhs: FHIRPathValue, _ rhs: FHIRPathValue, _ op: FHIRPathOperator,
                        at position: Int) throws(FHIRPathError) -> ComparisonResult? {
        if let a = number(lhs), let b = number(rhs) { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if case .string(let a) = lhs, case .string(let b) = rhs { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if let (a, b) = temporals(lhs, rhs) { return FHIRPathTemporal.compare(a, b) }
        if let (a, b) = quantities(lhs, rhs) {
            guard a.unit == b.unit else { return nil }
            return a.value < b.value ? .orderedAscending : a.value > b.value ? .orderedDescending : .orderedSame
        }
        throw FHIRPathError("The operator '\(op.rawValue)' cannot compare \(lhs.typeDescription) with \(rhs.typeDescription).", at: position)
    }

    // MARK: Arithmetic

    /// `+ - * / div mod` on two items; nil for an empty result (division by zero, units that do not match).
    static func arithmetic(_ op: FHIRPathOperator, _ lhs: FHIRPathValue, _ rhs: FHIRPathValue,
                           at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        if op == .add, case .string(let a) = lhs, case .string(let b) = rhs { return .string(a + b) }
        if case .integer(let a) = lhs, case .integer(let b) = rhs { return try integers(op, a, b, at: position) }
        if let a = number(lhs), let b = number(rhs) { return try decimals(op, a, b, at: position) }
        if let (a, b) = quantities(lhs, rhs) {
            switch op {
            case .add, .subtract:
                guard a.unit == b.unit else { return nil }
                return .quantity(op == .add ? a.value + b.value : a.value - b.value, unit: a.unit)
            case .multiply:
                return .quantity(a.value * b.value, unit: multiplyUnits(a.unit, b.unit))
            case .divide:
                guard !b.value.isZero else { return nil }
                return .quantity(a.value / b.value, unit: divideUnits(a.unit, b.unit))
            default:
                break
            }
        }
        if op == .add || op == .subtract {
            switch (lhs, FHIRPathNavigation.quantity(of: rhs)) {
            case (.date(let text), let quantity?), (.dateTime(let text), let quantity?):
                if let moved = FHIRPathDateArithmetic.add(text, quantity.0, unit: quantity.1, subtracting: op == .subtract) { return moved }
                throw FHIRPathError("A date moves only by a time quantity (years, months, weeks, days, hours, minutes, seconds), "
                    + "not by '\(quantity.1)'.", at: position)
            default:
                break
            }
        }
        if isTemporal(lhs) || isTemporal(rhs) {
            throw FHIRPathError("Dates and times take only '+' and '-' with a time quantity after them.", at: position)
        }
        throw FHIRPathError("The operator '\(op.rawValue)' cannot combine \(lhs.typeDescription) with \(rhs.typeDescription).", at: position)
    }

    private static func integers(_ op: FHIRPathOperator, _ a: Int, _ b: Int, at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        let result: (partialValue: Int, overflow: Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide: return try decimals(op, Decimal(a), Decimal(b), at: position)
        case .div:
            guard b != 0 else { return nil }
            result = a.dividedReportingOverflow(by: b)
        case .mod:
            guard b != 0 else { return nil }
            // Truncated division: the remainder takes the sign of the dividend, as Swift's `%` does.
            result = b == -1 ? (0, false) : a.remainderReportingOverflow(dividingBy: b)
        default: return nil
        }
        guard !result.overflow else { throw FHIRPathError("The result of '\(op.rawValue)' is too large for an integer.", at: position) }
        return .integer(result.partialValue)
    }

    private static func decimals(_ op: FHIRPathOperator, _ a: Decimal, _ b: Decimal, at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        switch op {
        case .add: return .decimal(a + b)
        case .subtract: return .decimal(a - b)
        case .multiply: return .decimal(a * b)
        case .divide: return b.isZero ? nil : .decimal(a / b)
        case .div:
            guard !b.isZero else { return nil }
            guard let quotient = integer(truncated(a / b)) else {
                throw FHIRPathError("The result of 'div' is too large for an integer.", at: position)
            }
            return .integer(quotient)
        case .mod:
            return b.isZero ? nil : .decimal(a - b * truncated(a / b))
        default: return nil
        }
    }

    // MARK: Units

    static func multiplyUnits(_ a: String, _ b: String) -> String {
        if a == "1" { return b }
        if b == "1" { return a }
        if a == b, a.allSatisfy(\.isLetter) { return a + "2" }
        return wrap(a) + "." + wrap(b)
    }

    static func divideUnits(_ a: String, _ b: String) -> String {
        if b == "1" { return a }
        if a == b { return "1" }
        return (a == "1" ? "" : wrap(a)) + "/" + wrap(b)
    }

    private static func wrap(_ unit: String) -> String {
        unit.contains(".") || unit.contains("/") ? "(\(unit))" : unit
    }

    // MARK: Reading operands

    static func number(_ value: FHIRPathValue) -> Decimal? {
        switch value {
        case .integer(let number): return Decimal(number)
        case .decimal(let number): return number
        default: return nil
        }
    }

    private typealias Quantity = (value: Decimal, unit: String)

    /// Both items as quantities when at least one is a quantity and the other a quantity or a number.
    private static func quantities(_ lhs: FHIRPathValue, _ rhs: FHIRPathValue) -> (Quantity, Quantity)? {
        let a = FHIRPathNavigation.quantity(of: lhs)
        let b = FHIRPathNavigation.quantity(of: rhs)
        guard a != nil || b != nil else { return nil }
        guard let left = a ?? number(lhs).map({ ($0, "1") }), let right = b ?? number(rhs).map({ ($0, "1") }) else { return nil }
        return ((left.0, left.1), (right.0, right.1))
    }

    private static func isTemporal(_ value: FHIRPathValue) -> Bool {
        switch value {
        case .date, .dateTime, .time: return true
        default: return false
        }
    }

    /// Both items as dates (or date-times), or both as times; a string reads as the other side's kind.
    private static func temporals(_ lhs: FHIRPathValue, _ rhs: FHIRPathValue) -> (FHIRPathTemporal, FHIRPathTemporal)? {
        func read(_ value: FHIRPathValue, timeOfDay: Bool) -> FHIRPathTemporal? {
            switch value {
            case .date(let text), .dateTime(let text): return timeOfDay ? nil : FHIRPathTemporal.parse(text)
            case .time(let text): return timeOfDay ? FHIRPathTemporal.parse(text, time: true) : nil
            case .string(let text):
                guard let value = FHIRPathTemporal.parse(text, time: timeOfDay) else { return nil }
                return (value.kind == .time) == timeOfDay ? value : nil
            default: return nil
            }
        }
        // Two strings stay strings.
        guard isTemporal(lhs) || isTemporal(rhs) else { return nil }
        for timeOfDay in [false, true] {
            if let a = read(lhs, timeOfDay: timeOfDay), let b = read(rhs, timeOfDay: timeOfDay) { return (a, b) }
        }
        return nil
    }

    // MARK: Decimal helpers

    static func rounded(_ value: Decimal, scale: Int, mode: NSDecimalNumber.RoundingMode = .plain) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, scale, mode)
        return result
    }

    /// Drops the fraction, towards zero.
    static func truncated(_ value: Decimal) -> Decimal {
        let magnitude = rounded(value < 0 ? -value : value, scale: 0, mode: .down)
        return value < 0 ? -magnitude : magnitude
    }

    /// A whole decimal as an integer, when it fits.
    static func integer(_ value: Decimal) -> Int? {
        guard value >= Decimal(Int.min), value <= Decimal(Int.max) else { return nil }
        return Int(NSDecimalNumber(decimal: value).stringValue)
    }

    /// The number of digits after the point.
    private static func scaleOf(_ value: Decimal) -> Int { max(0, -Int(value.exponent)) }

    private static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
