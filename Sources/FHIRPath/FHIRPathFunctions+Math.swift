import Foundation

/// FHIRPath's math functions beyond `abs`, `round` and `power` (`floor`, `ceiling`, `truncate`,
/// `sqrt`), and one addition: `secondsUntil(other)`, the seconds from a date or date-time to
/// another, negative when the other comes first. A date counts from its midnight; a value
/// without a zone is read in the zone of the other, or both in UTC. Empty unless both reach the day.
extension FHIRPathEvaluator {
    mutating func math(_ function: FHIRPathFunction, on input: [FHIRPathValue], arguments: [FHIRPathNode], focus: [FHIRPathValue],
                       name: String, at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        guard let item = try singleItem(input, name: name, at: position) else { return [] }
        if function == .secondsUntil {
            guard let other = try singleItem(try evaluate(arguments[0], focus: focus), name: name, at: position) else { return [] }
            guard let start = Self.instant(item), let end = Self.instant(other) else { return [] }
            // A value without a zone is read in the other's zone (or both in UTC).
            let startOffset = start.offset ?? end.offset ?? 0, endOffset = end.offset ?? start.offset ?? 0
            let difference: Decimal = (end.seconds - Decimal(endOffset * 60)) - (start.seconds - Decimal(startOffset * 60))
            return [.decimal(difference)]
        }
        guard let number = FHIRPathOperators.number(item) else {
            throw FHIRPathError("\(name) works on a number, not \(item.typeDescription).", at: position)
        }
        switch function {
        case .floor, .ceiling, .truncate:
            var rounded = Decimal()
            var value = number
            let mode: NSDecimalNumber.RoundingMode = function == .floor || (function == .truncate && number >= 0) ? .down : .up
            NSDecimalRound(&rounded, &value, 0, mode)
            let whole = NSDecimalNumber(decimal: rounded)
            guard abs(whole.doubleValue) < 9.2e18 else { return [] }
            return [.integer(whole.intValue)]
        default:
            guard number >= 0 else { return [] }
            let root = NSDecimalNumber(decimal: number).doubleValue.squareRoot()
            return [.decimal(Decimal(string: String(root), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(root))]
        }
    }

    /// Seconds since 1970-01-01T00:00 on the value's own clock, and its zone offset in minutes if it has one,
    /// of a date or date-time that reaches the day.
    private static func instant(_ value: FHIRPathValue) -> (seconds: Decimal, offset: Int?)? {
        let text: String
        switch value {
        case .date(let given), .dateTime(let given): text = given
        case .string(let given): text = given
        default: return nil
        }
        guard let temporal = FHIRPathTemporal.parse(text), temporal.kind != .time, temporal.parts.count >= 3 else { return nil }
        let parts = temporal.parts.map { NSDecimalNumber(decimal: $0).intValue }
        let days = GregorianDays.sinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        var seconds = Decimal(days) * 86_400
        if temporal.parts.count >= 4 { seconds += Decimal(parts[3] * 3600) }
        if temporal.parts.count >= 5 { seconds += Decimal(parts[4] * 60) }
        if temporal.parts.count >= 6 { seconds += temporal.parts[5] }
        return (seconds, temporal.offsetMinutes)
    }
}
