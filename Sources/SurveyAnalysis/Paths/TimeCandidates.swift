import Foundation
import JSON
import SurveyCore

/// Candidate answers of the time of day and date formats: the tested times and dates, the
/// format's bounds and today, each with its neighbours on the format's grid (a minute
/// interval, a day), and the points between them.
enum TimeCandidates {
    static func times(_ format: TimeOfDayFormat, tested: TestedValues) -> [Answer] {
        let interval = Double(max(format.effectiveMinuteInterval, 1))
        let points = tested.times.map { Double($0.minutesOfDay) / interval }
        return NumberCandidates.numbers(around: points, digits: 0, low: 0, high: (1439 / interval).rounded(.down)).compactMap { slot in
            let minutes = Int(slot * interval)
            return TimeOfDay(hour: minutes / 60, minute: minutes % 60).map(Answer.timeOfDay)
        }
    }

    static func dates(_ format: DateFormat, tested: TestedValues, context: AnswerContext) -> [Answer] {
        let zone = context.timeZone
        let bounds = format.bounds(context: context)
        switch format.effectiveStyle {
        case .date:
            var days = tested.dates.compactMap { text in
                CalendarDate(text) ?? DateTimeParsing.instant(text, defaultZone: zone).map { CalendarDate($0, in: zone) }
            }
            days.append(CalendarDate(context.now, in: zone))
            let low = bounds.minimum.map { Double(CalendarDate($0, in: zone).dayNumber) }
            let high = bounds.maximum.map { Double(CalendarDate($0, in: zone).dayNumber) }
            return NumberCandidates.numbers(around: days.map { Double($0.dayNumber) }, digits: 0, low: low, high: high).compactMap { number in
                CalendarDate(dayNumber: Int(number)).map { .date(.day($0)) }
            }
        case .dateAndTime:
            let step = 60 * Double(max(format.minuteInterval ?? 1, 1))
            var instants: [Date] = [context.now]
            for text in tested.dates {
                if let day = CalendarDate(text) {
                    // A plain day as a bound: its first minute, and its last one for a maximum.
                    instants += [DateTimeParsing.instant(day.description, defaultZone: zone), DateFormat.lastMoment(of: day, in: zone)]
                        .compactMap { $0 }
                } else if let instant = DateTimeParsing.instant(text, defaultZone: zone) {
                    instants.append(instant)
                }
            }
            let low = bounds.minimum.map { ($0.timeIntervalSince1970 / step).rounded(.up) }
            let high = bounds.maximum.map { ($0.timeIntervalSince1970 / step).rounded(.down) }
            let slots = instants.map { $0.timeIntervalSince1970 / step }
            return NumberCandidates.numbers(around: slots, digits: 0, low: low, high: high).map { slot in
                .date(.instant(Date(timeIntervalSince1970: slot * step)))
            }
        }
    }
}
