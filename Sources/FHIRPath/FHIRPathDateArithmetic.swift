import Foundation

/// A date or date-time plus or minus a time-valued quantity (`today() - 18 'a'`,
/// `@2022-01-31 + 1 month`), as FHIRPath defines it: years and months move the calendar (a day
/// past the month's end becomes its last day), weeks and days move the day, hours, minutes and
/// seconds the clock. A value of lower precision takes the quantity in its own smallest unit,
/// the rest dropped (`@2014 + 24 months` is `@2016`); the result keeps the value's precision.
enum FHIRPathDateArithmetic {
    /// The units a quantity may carry here, UCUM's and calendar words alike, in seconds for the
    /// clock's and as a calendar step for the others.
    private enum Step {
        case months(Int)
        case days(Int)
        case seconds(Decimal)
    }

    private static func step(_ value: Decimal, unit: String) -> Step? {
        let whole = NSDecimalNumber(decimal: value).intValue
        switch unit {
        case "a", "year", "years": return .months(whole * 12)
        case "mo", "month", "months": return .months(whole)
        case "wk", "week", "weeks": return .days(whole * 7)
        case "d", "day", "days": return .days(whole)
        case "h", "hour", "hours": return .seconds(value * 3600)
        case "min", "minute", "minutes": return .seconds(value * 60)
        case "s", "second", "seconds": return .seconds(value)
        case "ms", "millisecond", "milliseconds": return .seconds(value / 1000)
        default: return nil
        }
    }

    /// `temporal ± quantity`; nil when the unit is not a time unit, the value is a time of day,
    /// or the result leaves the years 1 to 9999.
    static func add(_ text: String, _ quantity: Decimal, unit: String, subtracting: Bool) -> FHIRPathValue? {
        guard var value = FHIRPathTemporal.parse(text), value.kind != .time, var step = step(quantity, unit: unit) else { return nil }
        if subtracting {
            switch step {
            case .months(let count): step = .months(-count)
            case .days(let count): step = .days(-count)
            case .seconds(let count): step = .seconds(-count)
            }
        }
        var parts = value.parts.map { NSDecimalNumber(decimal: $0).intValue }
        let precision = parts.count
        // A step finer than the value: taken in the value's smallest unit, whole units only.
        switch (step, precision) {
        case (.days(let count), 1): step = .months((count / 365) * 12)
        case (.days(let count), 2): step = .months(count / 30)
        case (.seconds(let count), 1...3):
            let days = NSDecimalNumber(decimal: count / 86_400).intValue
            step = precision == 3 ? .days(days) : precision == 2 ? .months(days / 30) : .months((days / 365) * 12)
        default: break
        }
        switch step {
        case .months(let count):
            if precision == 1 {
                parts[0] += count / 12
            } else {
                let total = parts[0] * 12 + (parts[1] - 1) + count
                parts[0] = Int((Double(total) / 12).rounded(.down))
                parts[1] = total - parts[0] * 12 + 1
                if precision >= 3 { parts[2] = min(parts[2], GregorianDays.daysIn(month: parts[1], year: parts[0])) }
            }
        case .days(let count):
            let day = GregorianDays.sinceEpoch(year: parts[0], month: parts[1], day: parts[2]) + count
            (parts[0], parts[1], parts[2]) = GregorianDays.civil(day)
        case .seconds(let count):
            // The clock's parts as far as given: whole seconds move it, in minutes when it stops at minutes.
            var clock = Decimal(parts.count > 3 ? parts[3] : 0) * 3600 + Decimal(parts.count > 4 ? parts[4] : 0) * 60
            if value.parts.count > 5 { clock += value.parts[5] }
            clock += count
            var days = NSDecimalNumber(decimal: clock / 86_400).intValue
            if clock < Decimal(days) * 86_400 { days -= 1 }
            clock -= Decimal(days) * 86_400
            let day = GregorianDays.sinceEpoch(year: parts[0], month: parts[1], day: parts[2]) + days
            (parts[0], parts[1], parts[2]) = GregorianDays.civil(day)
            let seconds = NSDecimalNumber(decimal: clock).intValue
            if parts.count > 3 { parts[3] = seconds / 3600 }
            if parts.count > 4 { parts[4] = (seconds % 3600) / 60 }
            if value.parts.count > 5 { value.parts[5] = clock - Decimal(seconds - seconds % 60) }
        }
        guard (1...9999).contains(parts[0]) else { return nil }
        for index in 0..<min(5, parts.count) { value.parts[index] = Decimal(parts[index]) }
        return value.kind == .date ? .date(value.text) : .dateTime(value.text)
    }
}
