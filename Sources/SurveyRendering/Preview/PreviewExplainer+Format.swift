import Foundation
import JSON
import SurveyCore

/// Answer formats in a few words: "Yes / No", "any of 5 choices (one excludes the others)",
/// "number 34–43 °C, 1 decimal place". The switch names every format, so a new one does not
/// compile until it is worded here.
extension PreviewExplainer {
    /// What a question asks for, with its bounds and units, and the answers it takes besides
    /// ("or “I don't know”").
    public func summary(_ format: AnswerFormat) -> String {
        var details: [String] = []
        var alternatives: [String] = []
        let text: String
        switch format {
        case .boolean(let labels):
            let yes = plain(labels.yes) ?? catalog["yes"]
            let no = plain(labels.no) ?? catalog["no"]
            text = yes == catalog["yes"] && no == catalog["no"]
                ? PreviewWords[.yesNo]
                : PreviewWords.fill(.yesNoLabelled, PreviewWords.fill(.quoted, yes), PreviewWords.fill(.quoted, no))
        case .textChoice(let choices):
            let multiple = choices.style == .multipleChoice
            let base = PreviewWords.fill(multiple ? .anyOf : .oneOf, choiceCount(choices.choices.count))
            var notes: [String] = []
            let exclusive = choices.choices.filter(\.isExclusive).count
            if multiple, exclusive > 0 { notes.append(exclusive == 1 ? PreviewWords[.exclusiveOne] : PreviewWords.fill(.exclusiveMany, String(exclusive))) }
            let other = choices.choices.filter { $0.other != nil }.count
            if other > 0 { notes.append(other == 1 ? PreviewWords[.otherOne] : PreviewWords.fill(.otherMany, String(other))) }
            text = notes.isEmpty ? base : PreviewWords.fill(.notes, base, notes.joined(separator: PreviewWords[.noteSeparator]))
        case .valuePicker(let picker):
            text = PreviewWords.fill(.picker, choiceCount(picker.choices.count))
        case .multipleValuePicker(let pickers):
            text = PreviewWords.fill(.picker, PreviewWords.count(pickers.pickers.count, one: .listsOne, many: .listsMany))
        case .imageChoice(let images):
            text = PreviewWords.fill(images.effectiveStyle == .multipleChoice ? .imageChoiceAny : .imageChoice, String(images.choices.count))
        case .scale(let scale):
            text = scale.effectiveStep > 1
                ? PreviewWords.fill(.scaleSteps, String(scale.minimum), String(scale.maximum), String(scale.effectiveStep))
                : PreviewWords.fill(.scale, String(scale.minimum), String(scale.maximum))
        case .continuousScale(let scale):
            let range = PreviewWords.fill(.range, JSONWriter.number(scale.shown(scale.minimum)), JSONWriter.number(scale.shown(scale.maximum)))
            text = PreviewWords.fill(.slider, scale.isPercent ? PreviewWords.fill(.percent, range) : range)
            if scale.fractionDigits > 0 { details.append(decimals(scale.fractionDigits)) }
        case .textScale(let scale):
            if let first = quoted(scale.choices.first?.text), let last = quoted(scale.choices.last?.text), scale.choices.count > 1 {
                text = PreviewWords.fill(.textScale, String(scale.choices.count), first, last)
            } else {
                text = PreviewWords.fill(.oneOf, choiceCount(scale.choices.count))
            }
        case .numeric(let numeric):
            let whole = numeric.effectiveStyle == .integer || numeric.maximumFractionDigits == 0
            let noun = PreviewWords[whole ? .wholeNumber : .number]
            let unit = numeric.unit ?? numeric.displayUnit
            let range = bounds(numeric.minimum, numeric.maximum).map { withUnit($0, unit) } ?? unit.map { PreviewWords.fill(.inUnit, $0) }
            text = range.map { noun + " " + $0 } ?? noun
            if !whole, let digits = numeric.maximumFractionDigits { details.append(decimals(digits)) }
        case .timeOfDay(let time):
            text = PreviewWords[.timeOfDay]
            if time.effectiveMinuteInterval > 1 { details.append(PreviewWords.fill(.minuteSteps, String(time.effectiveMinuteInterval))) }
        case .date(let dates):
            let noun = PreviewWords[dates.effectiveStyle == .dateAndTime ? .dateAndTime : .date]
            let earliest = dates.daysBeforeCurrentDate.map { days(ago: $0) } ?? dates.minimumDate.map { date($0) }
            let latest = dates.daysAfterCurrentDate.map { days(ahead: $0) } ?? dates.maximumDate.map { date($0) }
            switch (earliest, latest) {
            case (let low?, let high?): text = PreviewWords.fill(.dateBetween, noun, low, high)
            case (let low?, nil): text = PreviewWords.fill(.dateFrom, noun, low)
            case (nil, let high?): text = PreviewWords.fill(.dateUntil, noun, high)
            case (nil, nil): text = noun
            }
            if dates.effectiveStyle == .dateAndTime, let interval = dates.minuteInterval, interval > 1 {
                details.append(PreviewWords.fill(.minuteSteps, String(interval)))
            }
        case .timeInterval(let interval):
            text = PreviewWords[.hoursAndMinutes]
            if interval.effectiveStep > 1 { details.append(PreviewWords.fill(.minuteSteps, String(interval.effectiveStep))) }
        case .text(let typed):
            text = typed.lengthLimit.map { PreviewWords[.text] + " " + PreviewWords.fill(.upTo, String($0)) } ?? PreviewWords[.text]
            if typed.multipleLines == true { details.append(PreviewWords[.severalLines]) }
            if let pattern = typed.validationRegularExpression { details.append(PreviewWords.fill(.matching, pattern)) }
        case .email:
            text = PreviewWords[.email]
        case .height(let height):
            switch height.measurementSystem ?? .local {
            case .metric: text = PreviewWords.fill(.height, PreviewWords[.centimetres])
            case .USC: text = PreviewWords.fill(.height, PreviewWords[.heightFeet])
            case .local: text = PreviewWords.fill(.height, PreviewWords[.heightByRegion])
            }
        case .weight(let weight):
            let system = weight.measurementSystem ?? .local
            switch system {
            case .metric: text = PreviewWords.fill(.weight, PreviewWords[.kilograms])
            case .USC: text = PreviewWords.fill(.weight, PreviewWords[weight.numericPrecision == .high ? .poundsAndOunces : .pounds])
            case .local: text = PreviewWords.fill(.weight, PreviewWords[.weightByRegion])
            }
            if let range = bounds(weight.minimumValue, weight.maximumValue) { details.append(range) }
            switch weight.numericPrecision ?? .default {
            case .low: details.append(PreviewWords[.wholeUnits])
            case .high where system != .USC: details.append(decimals(2))
            case .high, .default: break
            }
        case .age(let age):
            text = PreviewWords.fill(.age, PreviewWords.fill(.range, String(age.effectiveMinimum), String(age.effectiveMaximum)))
            if age.useYearForResult == true { details.append(PreviewWords[.birthYear]) }
            if age.treatMinAgeAsRange == true {
                alternatives.append(quoted(age.minimumAgeCustomText) ?? PreviewWords.fill(.younger, String(age.effectiveMinimum)))
            }
            if age.treatMaxAgeAsRange == true {
                alternatives.append(quoted(age.maximumAgeCustomText) ?? PreviewWords.fill(.older, String(age.effectiveMaximum)))
            }
        case .location:
            text = PreviewWords[.location]
        case .ses:
            text = PreviewWords[.ses]
        }
        if format.showsDontKnow { alternatives.append(dontKnowText(format)) }
        if !alternatives.isEmpty { details.append(PreviewWords.fill(.orAnswer, alternatives.joined(separator: PreviewWords[.orSeparator]))) }
        return ([text] + details).joined(separator: PreviewWords[.listSeparator])
    }

    private func choiceCount(_ count: Int) -> String {
        PreviewWords.count(count, one: .choicesOne, many: .choicesMany)
    }

    private func decimals(_ digits: Int) -> String {
        PreviewWords.count(digits, one: .decimalsOne, many: .decimalsMany)
    }

    /// "34–43", "≥ 0" or "≤ 42"; nil without bounds.
    private func bounds(_ minimum: Double?, _ maximum: Double?) -> String? {
        switch (minimum, maximum) {
        case (let low?, let high?): return PreviewWords.fill(.range, JSONWriter.number(low), JSONWriter.number(high))
        case (let low?, nil): return PreviewWords.fill(.atLeastShort, JSONWriter.number(low))
        case (nil, let high?): return PreviewWords.fill(.atMostShort, JSONWriter.number(high))
        case (nil, nil): return nil
        }
    }

    private func days(ago count: Int) -> String {
        count == 0 ? PreviewWords[.today] : PreviewWords.count(count, one: .dayAgo, many: .daysAgo)
    }

    private func days(ahead count: Int) -> String {
        count == 0 ? PreviewWords[.today] : PreviewWords.count(count, one: .dayAhead, many: .daysAhead)
    }
}
