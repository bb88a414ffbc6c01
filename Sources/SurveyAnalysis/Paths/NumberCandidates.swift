import Foundation
import JSON
import SurveyCore

/// Candidate answers of the number formats (numeric, continuous scale, age, height, weight,
/// time interval). A test compares the recorded number with constants, so the numbers worth
/// trying are the constants and the format's bounds, a grid step and a whole unit either side
/// of each, and the points halfway between neighbours, each put on the format's grid.
enum NumberCandidates {
    static func answers(_ format: AnswerFormat, tested: TestedValues, context: AnswerContext) -> [Answer] {
        switch format {
        case .numeric(let numeric):
            let digits = numeric.effectiveStyle == .integer ? 0 : numeric.maximumFractionDigits ?? digitsFor(tested.numbers)
            return numbers(around: tested.numbers, digits: digits, low: numeric.minimum, high: numeric.maximum).map(Answer.numeric)
        case .continuousScale(let scale):
            let digits = min(max(scale.fractionDigits, 0), 4) + (scale.isPercent ? 2 : 0)
            return numbers(around: tested.numbers, digits: digits, low: scale.minimum, high: scale.maximum).map(Answer.scale)
        case .age(let age):
            var low = Double(age.effectiveMinimum)
            var high = Double(age.effectiveMaximum)
            if age.useYearForResult == true {
                let year = Double(age.relativeYear ?? CalendarDate(context.now, in: context.timeZone).year)
                (low, high) = (year - high, year - low)
            }
            var values = numbers(around: tested.numbers, digits: 0, low: low, high: high)
            if age.treatMinAgeAsRange == true { values.append(Double(AgeFormat.minimumSentinel)) }
            if age.treatMaxAgeAsRange == true { values.append(Double(AgeFormat.maximumSentinel)) }
            return values.map(Answer.numeric)
        case .height:
            let range = HeightFormat.centimetreRange
            return numbers(around: tested.numbers, digits: 1, low: range.lowerBound, high: range.upperBound).map(Answer.numeric)
        case .weight(let weight):
            let pounds = context.resolve(weight.measurementSystem) == .USC
            let perUnit = pounds ? SurveyCore.Measurement.kilogramsPerPound : 1
            let low = (weight.minimumValue ?? 0) * perUnit
            let high = weight.effectiveMaximum(pounds: pounds) * perUnit
            return numbers(around: tested.numbers, digits: weight.allowedDigits, low: low, high: high).map(Answer.numeric)
        case .timeInterval(let interval):
            let step = Double(max(interval.effectiveStep, 1))
            let minutes = tested.numbers.map { $0 / 60 / step }
            return numbers(around: minutes, digits: 0, low: 0, high: (1439 / step).rounded(.down))
                .map { .timeInterval($0 * step * 60) }
        case .boolean, .textChoice, .valuePicker, .multipleValuePicker, .imageChoice, .scale, .textScale, .timeOfDay, .date,
             .text, .email, .location, .ses:
            return []
        }
    }

    /// Numbers with at most `digits` fraction digits within the bounds: every point, a grid
    /// step and 1 either side of it, and the middle of each pair of neighbouring points.
    static func numbers(around tested: [Double], digits: Int, low: Double?, high: Double?) -> [Double] {
        var points = tested.filter(\.isFinite)
        points += [low, high].compactMap { $0 }.filter(\.isFinite)
        if points.isEmpty { points = [0, 1] }
        let grid = pow(10, Double(-digits))
        let sorted = Array(Set(points)).sorted()
        var raw: [Double] = []
        // A plain value first: the middle of the bounds, or the first point.
        if let low, let high, low.isFinite, high.isFinite { raw.append((low + high) / 2) }
        for point in points {
            raw += [point, point - grid, point + grid, point - 1, point + 1]
        }
        for (left, right) in zip(sorted, sorted.dropFirst()) { raw.append((left + right) / 2) }
        var seen = Set<Double>()
        var values: [Double] = []
        for value in raw {
            for snapped in onGrid(value, digits: digits) {
                if let low, snapped < low { continue }
                if let high, snapped > high { continue }
                if seen.insert(snapped).inserted { values.append(snapped) }
            }
        }
        return values
    }

    /// The grid values just below and above a number (one, when it is on the grid).
    static func onGrid(_ value: Double, digits: Int) -> [Double] {
        let scale = pow(10, Double(digits))
        let scaled = value * scale
        let nearest = scaled.rounded()
        if abs(scaled - nearest) < 1e-9 * max(1, abs(scaled)) { return [nearest / scale] }
        return [scaled.rounded(.down) / scale, scaled.rounded(.up) / scale]
    }

    /// Fraction digits for a number format that sets none: one more than the tested constants
    /// use, so there is a number between any two of them.
    static func digitsFor(_ numbers: [Double]) -> Int {
        let used = numbers.map { number -> Int in
            let text = JSONWriter.number(number)
            guard let dot = text.firstIndex(of: "."), !text.contains("e") else { return 0 }
            return text.distance(from: dot, to: text.endIndex) - 1
        }
        return min((used.max() ?? 0) + 1, 6)
    }
}
