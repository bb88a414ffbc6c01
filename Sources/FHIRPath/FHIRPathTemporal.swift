import Foundation
import JSON

/// A date, date-time or time split into its parts, for reading literals and comparing values.
///
/// Values may stop at any precision (`2020`, `2020-01`, `2020-01-02T10`). Comparison goes precision
/// by precision from the year: a difference decides; reaching a precision that only one value has
/// makes the answer unknown (empty). Seconds and their fraction count as one precision.
struct FHIRPathTemporal: Equatable {
    enum Kind { case date, dateTime, time }

    var kind: Kind
    /// Year, month, day, hour, minute, second (with fraction) as far as given; a time starts at the hour.
    var parts: [Decimal]
    /// The zone offset in minutes, when the value has a time and a zone.
    var offsetMinutes: Int?

    /// Reads the text of a literal after its `@`, or of a FHIR value; nil unless all of `text` is read.
    static func parse(_ text: String, time: Bool = false) -> FHIRPathTemporal? {
        let characters = Array(time ? "T" + text : text)
        guard let (value, end) = scan(characters, from: 0), end == characters.count else { return nil }
        return value
    }

    /// Reads a date, date-time or time starting at `start` (just after an `@`), as far as it goes.
    static func scan(_ characters: [Character], from start: Int) -> (FHIRPathTemporal, end: Int)? {
        var reader = Reader(characters: characters, index: start)
        if reader.take("T") {
            guard let parts = reader.clock(), reader.index > start + 1 else { return nil }
            return (FHIRPathTemporal(kind: .time, parts: parts), reader.index)
        }
        guard let year = reader.number(digits: 4) else { return nil }
        var parts = [Decimal(year)]
        if reader.precedesDigit("-") {
            _ = reader.take("-")
            guard let month = reader.number(digits: 2), (1...12).contains(month) else { return nil }
            parts.append(Decimal(month))
            if reader.precedesDigit("-") {
                _ = reader.take("-")
                guard let day = reader.number(digits: 2), day >= 1, day <= GregorianDays.daysIn(month: month, year: year) else { return nil }
                parts.append(Decimal(day))
            }
        }
        guard reader.take("T") else { return (FHIRPathTemporal(kind: .date, parts: parts), reader.index) }
        var value = FHIRPathTemporal(kind: .dateTime, parts: parts)
        // A time may follow only a full date; `@2020T` is a date-time of year precision.
        guard reader.nextIsDigit else { return (value, reader.index) }
        guard parts.count == 3, let clock = reader.clock() else { return nil }
        value.parts += clock
        if reader.take("Z") {
            value.offsetMinutes = 0
        } else if reader.precedesDigit("+") || reader.precedesDigit("-") {
            let sign = reader.characters[reader.index] == "-" ? -1 : 1
            reader.index += 1
            guard let hours = reader.number(digits: 2), hours <= 14, reader.take(":"),
                  let minutes = reader.number(digits: 2), minutes <= 59 else { return nil }
            value.offsetMinutes = sign * (hours * 60 + minutes)
        }
        return (value, reader.index)
    }

    /// The value written back as FHIR writes it: `2022`, `2022-09-14`, `2022-09-14T10:30:05+02:00`.
    var text: String {
        func pad(_ number: Decimal, _ width: Int) -> String {
            let digits = String(NSDecimalNumber(decimal: number).intValue)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var written = ""
        if kind != .time {
            written = pad(parts[0], 4)
            if parts.count > 1 { written += "-" + pad(parts[1], 2) }
            if parts.count > 2 { written += "-" + pad(parts[2], 2) }
        }
        let clock = kind == .time ? Array(parts) : Array(parts.dropFirst(3))
        guard !clock.isEmpty else { return written }
        written += (kind == .time ? "" : "T") + pad(clock[0], 2)
        if clock.count > 1 { written += ":" + pad(clock[1], 2) }
        if clock.count > 2 {
            let whole = Decimal(NSDecimalNumber(decimal: clock[2]).intValue)
            written += ":" + pad(whole, 2)
            let fraction = "\(clock[2] - whole)"
            if fraction != "0", let dot = fraction.firstIndex(of: ".") { written += String(fraction[dot...]) }
        }
        if let offsetMinutes {
            if offsetMinutes == 0 {
                written += "Z"
            } else {
                let size = abs(offsetMinutes)
                written += (offsetMinutes < 0 ? "-" : "+") + pad(Decimal(size / 60), 2) + ":" + pad(Decimal(size % 60), 2)
            }
        }
        return written
    }

    /// Orders two values; nil when the answer is unknown because their precisions differ.
    static func compare(_ lhs: FHIRPathTemporal, _ rhs: FHIRPathTemporal) -> ComparisonResult? {
        var left = lhs.parts
        var right = rhs.parts
        if let a = lhs.utcParts(), let b = rhs.utcParts() {
            left = a
            right = b
        }
        for index in 0..<max(left.count, right.count) {
            guard index < left.count, index < right.count else { return nil }
            if left[index] < right[index] { return .orderedAscending }
            if left[index] > right[index] { return .orderedDescending }
        }
        return .orderedSame
    }

    /// Minutes since 1970 in UTC, then seconds if given, for a date-time with a zone and minutes.
    private func utcParts() -> [Decimal]? {
        guard kind == .dateTime, let offsetMinutes, parts.count >= 5 else { return nil }
        let numbers = parts.prefix(5).map { NSDecimalNumber(decimal: $0).intValue }
        let days = GregorianDays.sinceEpoch(year: numbers[0], month: numbers[1], day: numbers[2])
        let minutes = days * 1440 + numbers[3] * 60 + numbers[4] - offsetMinutes
        return [Decimal(minutes)] + parts.dropFirst(5)
    }
}

/// A cursor over characters for reading the fixed-width parts of dates and times.
private struct Reader {
    let characters: [Character]
    var index: Int

    var nextIsDigit: Bool { index < characters.count && FHIRPathCharacters.isDigit(characters[index]) }

    mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    /// Whether `character` comes next and a digit after it.
    func precedesDigit(_ character: Character) -> Bool {
        index + 1 < characters.count && characters[index] == character && FHIRPathCharacters.isDigit(characters[index + 1])
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= characters.count else { return nil }
        var value = 0
        for character in characters[index..<index + digits] {
            guard let digit = FHIRPathCharacters.digit(character) else { return nil }
            value = value * 10 + digit
        }
        index += digits
        return value
    }

    /// HH, HH:MM, HH:MM:SS or HH:MM:SS.fff.
    mutating func clock() -> [Decimal]? {
        guard let hour = number(digits: 2), hour <= 23 else { return nil }
        var parts = [Decimal(hour)]
        guard precedesDigit(":") else { return parts }
        index += 1
        guard let minute = number(digits: 2), minute <= 59 else { return nil }
        parts.append(Decimal(minute))
        guard precedesDigit(":") else { return parts }
        index += 1
        guard let second = number(digits: 2), second <= 59 else { return nil }
        var seconds = Decimal(second)
        if precedesDigit(".") {
            let start = index
            index += 1
            while nextIsDigit { index += 1 }
            seconds += Decimal(string: "0" + String(characters[start..<index]), locale: Locale(identifier: "en_US_POSIX")) ?? 0
        }
        parts.append(seconds)
        return parts
    }
}

/// Character classes of the FHIRPath grammar, which are all ASCII.
enum FHIRPathCharacters {
    static func digit(_ character: Character) -> Int? {
        guard let ascii = character.asciiValue, ascii >= 48, ascii <= 57 else { return nil }
        return Int(ascii - 48)
    }

    static func isDigit(_ character: Character) -> Bool { digit(character) != nil }

    static func isNameStart(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (65...90).contains(ascii) || (97...122).contains(ascii) || ascii == 95
    }

    static func isNamePart(_ character: Character) -> Bool { isNameStart(character) || isDigit(character) }
}
