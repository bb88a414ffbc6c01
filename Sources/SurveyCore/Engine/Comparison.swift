import FHIRPath
import Foundation
import JSON

extension Predicate {
    /// True for the tests that hold on a question with no result at all (not on the path, or
    /// hidden): FHIR's `exists false` and `!=`. ResearchKit's tests are all false there.
    public var holdsWithoutResult: Bool {
        switch self {
        case .answered(_, let flag): return !flag
        case .compare(_, let operation, _): return operation == .notEqual
        default: return false
        }
    }

    /// FHIR's enableWhen on one question: with no answer only `!=` holds; with several
    /// answers (a multiple choice) the test holds when any answer passes it.
    static func compare(_ answer: Answer?, _ operation: ComparisonOperator, _ expected: ExpectedValue, zone: TimeZone) -> Bool {
        guard let answer, answer != .dontKnow else { return operation == .notEqual }
        return atoms(of: answer).contains { atom in
            // FHIR leaves dates equal as far as the less precise one goes undecided: no test holds.
            if isUndecided(atom, expected, zone: zone) { return false }
            guard let order = order(atom, expected, zone: zone) else { return operation == .notEqual }
            switch operation {
            case .equal: return order == .orderedSame
            case .notEqual: return order != .orderedSame
            case .greater: return order == .orderedDescending
            case .less: return order == .orderedAscending
            case .greaterOrEqual: return order != .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            }
        }
    }

    /// One comparable value of an answer.
    enum Atom {
        case bool(Bool)
        case number(Double)
        case text(String)
        case day(CalendarDate)
        case instant(Date)
        case time(TimeOfDay)
    }

    static func atoms(of answer: Answer) -> [Atom] {
        switch answer {
        case .boolean(let flag): return [.bool(flag)]
        case .choices(let values), .components(let values):
            return values.map { value in
                switch value {
                case .number(let number): return .number(number)
                case .string(let text): return .text(text)
                }
            }
        case .scale(let number), .numeric(let number), .timeInterval(let number): return [.number(number)]
        case .ses(let rung): return [.number(Double(rung))]
        case .text(let text): return [.text(text)]
        case .location(let location): return [.text(location.userInput)]
        case .timeOfDay(let time): return [.time(time)]
        case .date(.day(let day)): return [.day(day)]
        case .date(.instant(let instant)): return [.instant(instant)]
        case .dontKnow: return []
        }
    }

    /// True when a date answer and a date of lower precision (`2022`, `2022-09`) agree as far as
    /// the latter goes, which FHIR leaves undecided.
    static func isUndecided(_ atom: Atom, _ expected: ExpectedValue, zone: TimeZone) -> Bool {
        // Only a date answer against a year or a month ("YYYY", "YYYY-MM"); other comparisons stop at the first test.
        guard case .string(let wanted) = expected, wanted.utf8.count == 4 || wanted.utf8.count == 7 else { return false }
        let day: CalendarDate
        switch atom {
        case .day(let given): day = given
        case .instant(let given): day = CalendarDate(given, in: zone)
        default: return false
        }
        return CalendarDate.span(ofPartial: wanted) != nil && FHIRTemporalOrder.of(day.description, wanted) == .undecided
    }

    /// How an answer's value stands to the expected one; nil when they cannot be compared.
    static func order(_ atom: Atom, _ expected: ExpectedValue, zone: TimeZone) -> ComparisonResult? {
        func ordered<T: Comparable>(_ left: T, _ right: T) -> ComparisonResult {
            left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        }
        switch (atom, expected) {
        case (.bool(let given), .bool(let wanted)):
            return given == wanted ? .orderedSame : .orderedAscending
        case (.number(let given), .number(let wanted)):
            return ordered(given, wanted)
        case (.text(let given), .string(let wanted)):
            return ordered(given, wanted)
        case (.text(let given), .number(let wanted)):
            return given == JSONWriter.number(wanted) ? .orderedSame : nil
        case (.number(let given), .string(let wanted)):
            return JSONWriter.number(given) == wanted ? .orderedSame : nil
        case (.day(let given), .string(let wanted)):
            if let day = CalendarDate(wanted) { return ordered(given, day) }
            if case .ordered(let order)? = FHIRTemporalOrder.of(given.description, wanted) { return order }
            return DateTimeParsing.instant(wanted, defaultZone: zone).map { ordered(given, CalendarDate($0, in: zone)) }
        case (.instant(let given), .string(let wanted)):
            if let day = CalendarDate(wanted) { return ordered(CalendarDate(given, in: zone), day) }
            if !wanted.contains("T"), case .ordered(let order)? = FHIRTemporalOrder.of(CalendarDate(given, in: zone).description, wanted) {
                return order
            }
            return DateTimeParsing.instant(wanted, defaultZone: zone).map { ordered(given, $0) }
        case (.time(let given), .string(let wanted)):
            return TimeOfDay(String(wanted.prefix(5))).map { ordered(given, $0) }
        default:
            return nil
        }
    }
}
