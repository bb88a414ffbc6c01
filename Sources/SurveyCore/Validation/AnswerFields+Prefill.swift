import Foundation

extension AnswerFields {
    /// The form fields that would give back `answer`: what a page shows for a saved answer.
    public static func fields(for answer: Answer, format: AnswerFormat, name: String, context: AnswerContext) -> [(String, String)] {
        switch (answer, format) {
        case (.dontKnow, _):
            return [(dontKnow(name), "1")]
        case (.boolean(let flag), _):
            return [(name, flag ? "true" : "false")]
        case (.choices(let values), .textChoice(let choice)):
            return choiceFields(values, choices: choice.choices, name: name)
        case (.choices(let values), _):
            return values.map { (name, $0.formValue) }
        case (.components(let values), _):
            return values.enumerated().map { (picker(name, $0.offset), $0.element.formValue) }
        case (.scale(let value), .continuousScale(let scale)):
            return [(name, JSONWriter.number(scale.isPercent ? (value * 100 * 1e6).rounded() / 1e6 : value))]
        case (.scale(let value), _), (.numeric(let value), .numeric):
            return [(name, JSONWriter.number(value))]
        case (.numeric(let value), .age(let age)):
            if age.useYearForResult == true, value >= 0 {
                let year = age.relativeYear ?? CalendarDate(context.now, in: context.timeZone).year
                return [(name, JSONWriter.number(Double(year) - value))]
            }
            return [(name, JSONWriter.number(value))]
        case (.numeric(let centimetres), .height(let height)):
            guard context.resolve(height.measurementSystem) == .USC else { return [(name, JSONWriter.number(centimetres))] }
            let inches = (centimetres / 2.54 * 10).rounded() / 10
            let feet = (inches / 12).rounded(.down)
            return [(name + ".feet", JSONWriter.number(feet)), (name + ".inches", JSONWriter.number(((inches - feet * 12) * 10).rounded() / 10))]
        case (.numeric(let kilograms), .weight(let weight)):
            guard context.resolve(weight.measurementSystem) == .USC else { return [(name, JSONWriter.number(kilograms))] }
            let pounds = kilograms / 0.453_592_37
            if weight.numericPrecision == .high {
                let whole = pounds.rounded(.down)
                return [(name + ".pounds", JSONWriter.number(whole)), (name + ".ounces", JSONWriter.number(((pounds - whole) * 16).rounded()))]
            }
            return [(name, JSONWriter.number((pounds * 10).rounded() / 10))]
        case (.numeric(let value), _):
            return [(name, JSONWriter.number(value))]
        case (.timeOfDay(let time), _):
            return [(name, time.description)]
        case (.date(let date), _):
            let day: CalendarDate
            var time: String?
            switch date {
            case .day(let value): day = value
            case .instant(let instant):
                day = CalendarDate(instant, in: context.timeZone)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = context.timeZone
                let parts = calendar.dateComponents([.hour, .minute], from: instant)
                time = TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0)?.description
            }
            var fields = [(name + ".day", String(day.day)), (name + ".month", String(day.month)), (name + ".year", String(day.year))]
            if let time { fields.append((name + ".time", time)) }
            return fields
        case (.timeInterval(let seconds), _):
            let minutes = Int(seconds / 60)
            return [(name + ".hours", String(minutes / 60)), (name + ".minutes", String(minutes % 60))]
        case (.text(let text), _):
            return [(name, text)]
        case (.location(let location), _):
            var fields = [(name, location.userInput)]
            if let latitude = location.latitude, let longitude = location.longitude {
                fields += [(name + ".latitude", JSONWriter.number(latitude)), (name + ".longitude", JSONWriter.number(longitude))]
            }
            return fields
        case (.ses(let rung), _):
            return [(name, String(rung))]
        }
    }

    /// Chosen values as fields; a typed "other" text marks its choice and fills its box.
    private static func choiceFields(_ values: [ChoiceValue], choices: [TextChoice], name: String) -> [(String, String)] {
        var fields: [(String, String)] = []
        var unmatched: [String] = []
        for value in values {
            if let index = choices.firstIndex(where: { $0.value == value }) {
                fields.append((name, value.formValue))
                // An "other" choice that needs text holds its own value only when that was typed.
                if let option = choices[index].other, !option.isOptional {
                    fields.append((other(name, choiceIndex: index, in: choices), value.formValue))
                }
            } else {
                unmatched.append(value.formValue)
            }
        }
        let others = choices.indices.filter { choices[$0].other != nil }
        for (text, index) in zip(unmatched, others) {
            fields.append((name, choices[index].value.formValue))
            fields.append((other(name, choiceIndex: index, in: choices), text))
        }
        return fields
    }

    /// The fields a format shows before any answer: its default, where typing it is harmless.
    /// Radios are never chosen in advance (GOV.UK), so scale defaults show no choice.
    public static func defaults(for format: AnswerFormat, name: String) -> [(String, String)] {
        switch format {
        case .numeric(let numeric): return numeric.defaultNumericAnswer.map { [(name, JSONWriter.number($0))] } ?? []
        case .text(let text): return text.defaultTextAnswer.map { [(name, $0)] } ?? []
        case .timeOfDay(let time): return time.defaultComponents.map { [(name, $0)] } ?? []
        case .timeInterval(let interval):
            guard let seconds = interval.defaultInterval else { return [] }
            let minutes = Int(seconds / 60) / interval.effectiveStep * interval.effectiveStep
            return [(name + ".hours", String(minutes / 60)), (name + ".minutes", String(minutes % 60))]
        case .weight(let weight): return weight.defaultValue.map { [(name, JSONWriter.number($0))] } ?? []
        case .age(let age): return age.defaultValue.map { [(name, String($0))] } ?? []
        default: return []
        }
    }
}
