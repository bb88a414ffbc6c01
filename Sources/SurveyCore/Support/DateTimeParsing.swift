import Foundation
import JSON

/// Reads and writes ISO 8601 date-times with offsets.
public enum DateTimeParsing {
    /// An instant from "YYYY-MM-DD" (midnight in `defaultZone`) or
    /// "YYYY-MM-DDTHH:mm[:ss[.fff]]" with an optional "Z" or "±HH:mm" offset (else `defaultZone`).
    public static func instant(_ text: String, defaultZone: TimeZone) -> Date? {
        if let date = CalendarDate(text) {
            return instant(date, TimeOfDay(hour: 0, minute: 0)!, second: 0, zone: defaultZone)
        }
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }),
              let date = CalendarDate(String(text[..<separator])) else { return nil }
        var rest = Substring(text[text.index(after: separator)...])
        var zone = defaultZone
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            zone = TimeZone(secondsFromGMT: 0)!
            rest = rest.dropLast()
        } else if let signIndex = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offsetText = rest[rest.index(after: signIndex)...].replacingOccurrences(of: ":", with: "")
            guard offsetText.count == 4, offsetText.allSatisfy(\.isASCIIDigit), let hours = Int(offsetText.prefix(2)),
                  let minutes = Int(offsetText.suffix(2)), hours <= 23, minutes <= 59 else { return nil }
            let sign = rest[signIndex] == "-" ? -1 : 1
            guard let offsetZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
            zone = offsetZone
            rest = rest[..<signIndex]
        }
        let timeParts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(timeParts.count), timeParts[0].count == 2, timeParts[1].count == 2,
              let hour = Int(timeParts[0]), let minute = Int(timeParts[1]), let time = TimeOfDay(hour: hour, minute: minute) else { return nil }
        var seconds = 0.0
        if timeParts.count == 3 {
            guard timeParts[2].count >= 2, let value = Double(timeParts[2]), value >= 0, value < 61,
                  timeParts[2].prefix(2).allSatisfy(\.isASCIIDigit) else { return nil }
            seconds = value
        }
        return instant(date, time, second: seconds, zone: zone)
    }

    static func instant(_ date: CalendarDate, _ time: TimeOfDay, second: Double, zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
                                        second: Int(second))
        guard let whole = calendar.date(from: components) else { return nil }
        return whole.addingTimeInterval(second - second.rounded(.down))
    }

    /// "2026-11-21T10:00:00+01:00": whole seconds, with the zone's offset at that instant.
    public static func string(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        let whole = Date(timeIntervalSince1970: seconds)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let offset = zone.secondsFromGMT(for: whole)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return pad(parts.year ?? 0, 4) + "-" + pad(parts.month ?? 0, 2) + "-" + pad(parts.day ?? 0, 2) + "T"
            + pad(parts.hour ?? 0, 2) + ":" + pad(parts.minute ?? 0, 2) + ":" + pad(parts.second ?? 0, 2)
            + sign + pad(magnitude / 3600, 2) + ":" + pad((magnitude % 3600) / 60, 2)
    }

    /// Like `string(_:in:)` with milliseconds, for result timings where order within a second matters.
    public static func preciseString(_ instant: Date, in zone: TimeZone) -> String {
        let base = string(instant, in: zone)
        let millis = Int(((instant.timeIntervalSince1970 - instant.timeIntervalSince1970.rounded(.down)) * 1000).rounded(.down))
        guard millis > 0 else { return base }
        let split = base.index(base.startIndex, offsetBy: 19)
        return String(base[..<split]) + "." + pad(millis, 3) + String(base[split...])
    }
}
