import Foundation

/// What a participant's request carries besides the fields: their language, the time and
/// the zone in which dates are read.
public struct AnswerContext: Sendable {
    public var language: String?
    public var now: Date
    public var timeZone: TimeZone

    public init(language: String? = nil, now: Date = Date(), timeZone: TimeZone = .current) {
        self.language = language
        self.now = now
        self.timeZone = timeZone
    }

    /// "local" becomes US customary for the regions that use it, metric elsewhere.
    public func resolve(_ system: MeasurementSystem?) -> MeasurementSystem {
        switch system ?? .local {
        case .metric: return .metric
        case .USC: return .USC
        case .local:
            let parts = (language ?? "").uppercased().split(separator: "-")
            return parts.dropFirst().contains(where: { ["US", "LR", "MM"].contains($0) }) ? .USC : .metric
        }
    }
}

/// What one question's fields amount to.
public enum FieldOutcome: Sendable, Hashable {
    /// Nothing was entered.
    case empty
    case answer(Answer)
    case invalid([AnswerIssue])
}

/// The names of the form fields each answer format uses, shared by the parser and the pages.
public enum AnswerFields {
    public static func dontKnow(_ name: String) -> String { name + ".dontKnow" }

    /// The text field of an "other" choice: `{item}.other`, or `{item}.other.{index}` when a
    /// format has several.
    public static func other(_ name: String, choiceIndex: Int, in choices: [TextChoice]) -> String {
        choices.filter { $0.other != nil }.count > 1 ? "\(name).other.\(choiceIndex)" : "\(name).other"
    }

    public static func picker(_ name: String, _ index: Int) -> String { "\(name).\(index)" }
}

/// Turns the raw strings of a form into typed answers, with ResearchKit's `isAnswerValid`
/// rules and participant-facing issues.
public enum AnswerParser {
    public static func parse(_ format: AnswerFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        if let field = AnswerFields.conflicting(in: fields, name: name, format: format) {
            return .invalid([AnswerIssue(field: field, code: .conflictingValues, message: Messages.conflictingValues)])
        }
        if format.showsDontKnow, fields.has(AnswerFields.dontKnow(name)) {
            return .answer(.dontKnow)
        }
        switch format {
        case .boolean:
            guard let raw = fields.trimmed(name) else { return .empty }
            switch raw.lowercased() {
            case "true", "yes", "1": return .answer(.boolean(true))
            case "false", "no", "0": return .answer(.boolean(false))
            default: return .invalid([AnswerIssue(field: name, code: .notAChoice, message: Messages.selectAnOption)])
            }
        case .textChoice(let choice):
            return parseChoices(choice.choices, multiple: choice.style == .multipleChoice, name: name, fields: fields, context: context)
        case .valuePicker(let picker):
            return parseChoices(picker.choices, multiple: false, name: name, fields: fields, context: context)
        case .textScale(let scale):
            return parseChoices(scale.choices, multiple: false, name: name, fields: fields, context: context)
        case .imageChoice(let image):
            let choices = image.choices.map { TextChoice(text: $0.text ?? $0.imageAlt, value: $0.value) }
            return parseChoices(choices, multiple: image.effectiveStyle == .multipleChoice, name: name, fields: fields, context: context)
        case .multipleValuePicker(let picker):
            return parsePickers(picker, name: name, fields: fields)
        case .scale(let scale):
            return parseScale(scale, name: name, fields: fields, context: context)
        case .continuousScale(let scale):
            return parseContinuous(scale, name: name, fields: fields, context: context)
        case .numeric(let numeric):
            return parseNumeric(numeric, name: name, fields: fields, context: context)
        case .timeOfDay(let format):
            guard let raw = fields.trimmed(name) else { return .empty }
            guard let time = TimeParsing.parse(raw) else {
                return .invalid([AnswerIssue(field: name, code: .invalidDate, message: Messages.enterTime)])
            }
            if time.minute % format.effectiveMinuteInterval != 0 {
                return .invalid([AnswerIssue(field: name, code: .notOnInterval, message: Messages.timeInterval(format.effectiveMinuteInterval))])
            }
            return .answer(.timeOfDay(time))
        case .date(let format):
            return DateAnswerParsing.parse(format, name: name, fields: fields, context: context)
        case .timeInterval(let format):
            return parseInterval(format, name: name, fields: fields)
        case .text(let format):
            return parseText(format, name: name, fields: fields, context: context)
        case .email:
            guard let raw = fields.trimmed(name) else { return .empty }
            let pattern = "^[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,6}$"
            guard raw.range(of: pattern, options: .regularExpression) != nil else {
                return .invalid([AnswerIssue(field: name, code: .email, message: Messages.email)])
            }
            return .answer(.text(raw))
        case .height(let format):
            return MeasurementParsing.height(format, name: name, fields: fields, context: context)
        case .weight(let format):
            return MeasurementParsing.weight(format, name: name, fields: fields, context: context)
        case .age(let format):
            return parseAge(format, name: name, fields: fields, context: context)
        case .location:
            guard let raw = fields.trimmed(name) else { return .empty }
            var location = LocationAnswer(userInput: raw)
            if let latitude = fields.trimmed(name + ".latitude").flatMap(Double.init), let longitude = fields.trimmed(name + ".longitude").flatMap(Double.init),
               (-90...90).contains(latitude), (-180...180).contains(longitude) {
                location.latitude = latitude
                location.longitude = longitude
            }
            return .answer(.location(location))
        case .ses:
            guard let raw = fields.trimmed(name) else { return .empty }
            guard let rung = Int(raw), (1...SESFormat.rungCount).contains(rung) else {
                return .invalid([AnswerIssue(field: name, code: .notAChoice, message: Messages.selectAnOption)])
            }
            return .answer(.ses(rung))
        }
    }

    // MARK: Choices

    static func parseChoices(_ choices: [TextChoice], multiple: Bool, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        var sent = fields.all(name).filter { !$0.isEmpty }
        var seen = Set<String>()
        sent = sent.filter { seen.insert($0).inserted }
        var chosen: [Int] = []
        for value in sent {
            guard let index = choices.firstIndex(where: { $0.value.formValue == value }) else {
                return .invalid([AnswerIssue(field: name, code: .notAChoice, message: Messages.selectAnOption)])
            }
            chosen.append(index)
        }
        var issues: [AnswerIssue] = []
        // Text typed into an "other" box: it says which choice the participant meant.
        var otherTexts: [Int: String] = [:]
        for (index, choice) in choices.enumerated() where choice.other != nil {
            let field = AnswerFields.other(name, choiceIndex: index, in: choices)
            if let text = fields.trimmed(field) { otherTexts[index] = text.replacingOccurrences(of: "\r\n", with: "\n") }
        }
        for (index, _) in otherTexts.sorted(by: { $0.key < $1.key }) where !chosen.contains(index) {
            if multiple || chosen.isEmpty {
                chosen.append(index)
            } else {
                let label = Messages.plain(choices[index].text, context)
                issues.append(AnswerIssue(field: AnswerFields.other(name, choiceIndex: index, in: choices), code: .otherText,
                                          message: "Select “\(label)” to give your own answer, or clear the text"))
            }
        }
        // Text in an "other" box that spells a choice's value is that choice: a result could
        // not tell the two apart, and the page that shows the answer again ticks the choice.
        for (index, text) in otherTexts {
            guard let same = choices.firstIndex(where: { $0.value.formValue == text }), same != index else { continue }
            otherTexts[index] = nil
            chosen = chosen.map { $0 == index ? same : $0 }
        }
        var once = Set<Int>()
        chosen = chosen.filter { once.insert($0).inserted }
        if !multiple, chosen.count > 1, issues.isEmpty {
            issues.append(AnswerIssue(field: name, code: .tooManyChoices, message: "Select one option only"))
        }
        if multiple, chosen.count > 1 {
            for index in chosen where choices[index].isExclusive {
                let label = Messages.plain(choices[index].text, context)
                issues.append(AnswerIssue(field: name, code: .exclusive, message: "Select “\(label)” on its own, or untick it to choose other answers"))
                break
            }
        }
        for index in chosen {
            if let other = choices[index].other, !other.isOptional, otherTexts[index] == nil {
                let label = Messages.plain(choices[index].text, context)
                issues.append(AnswerIssue(field: AnswerFields.other(name, choiceIndex: index, in: choices), code: .otherText,
                                          message: "Enter your answer for “\(label)”"))
            }
        }
        if !issues.isEmpty { return .invalid(issues) }
        if chosen.isEmpty { return .empty }
        let ordered = multiple ? chosen.sorted() : chosen
        let values = ordered.map { index -> ChoiceValue in
            if let text = otherTexts[index] { return .string(text) }
            return choices[index].value
        }
        return .answer(.choices(values))
    }

    static func parsePickers(_ format: MultipleValuePickerFormat, name: String, fields: FormFields) -> FieldOutcome {
        var values: [ChoiceValue?] = []
        for (index, picker) in format.pickers.enumerated() {
            let field = AnswerFields.picker(name, index)
            guard let raw = fields.trimmed(field) else {
                values.append(nil)
                continue
            }
            guard let choice = picker.first(where: { $0.value.formValue == raw }) else {
                return .invalid([AnswerIssue(field: field, code: .notAChoice, message: Messages.selectAnOption)])
            }
            values.append(choice.value)
        }
        if values.allSatisfy({ $0 == nil }) { return .empty }
        if let missing = values.firstIndex(where: { $0 == nil }) {
            return .invalid([AnswerIssue(field: AnswerFields.picker(name, missing), code: .incomplete, message: "Select a value in every list")])
        }
        return .answer(.components(values.compactMap { $0 }))
    }

    // MARK: Numbers

    static func parseScale(_ format: ScaleFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let number = NumberParsing.parse(raw, language: context.language), number.fractionDigits == 0 else {
            return .invalid([AnswerIssue(field: name, code: .notAChoice, message: Messages.selectAnOption)])
        }
        guard number.value >= Double(format.minimum), number.value <= Double(format.maximum) else {
            return .invalid([AnswerIssue(field: name, code: .outOfRange,
                                         message: "Select a value from \(format.minimum) to \(format.maximum)")])
        }
        let value = Int(number.value)
        if value < format.minimum || value > format.maximum {
            return .invalid([AnswerIssue(field: name, code: .outOfRange,
                                         message: "Select a value from \(format.minimum) to \(format.maximum)")])
        }
        if !format.values.contains(value) {
            return .invalid([AnswerIssue(field: name, code: .notAChoice, message: Messages.selectAnOption)])
        }
        return .answer(.scale(Double(value)))
    }

    static func parseContinuous(_ format: ContinuousScaleFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard var raw = fields.trimmed(name) else { return .empty }
        if format.isPercent, raw.hasSuffix("%") { raw = String(raw.dropLast()) }
        let factor = format.isPercent ? 100.0 : 1.0
        let digits = min(max(format.fractionDigits, 0), 4)
        // Scaled bounds are rounded to the digits shown, so 0.07 reads as 7 and not 7.000000000000001.
        let shown = pow(10, Double(digits))
        let low = (format.minimum * factor * shown).rounded() / shown
        let high = (format.maximum * factor * shown).rounded() / shown
        let unit = format.isPercent ? "%" : ""
        guard let number = NumberParsing.parse(raw, language: context.language) else {
            return .invalid([AnswerIssue(field: name, code: .notANumber, message: Messages.enterNumber(between: low, and: high, unit: unit))])
        }
        if number.fractionDigits > digits {
            return .invalid([AnswerIssue(field: name, code: .tooManyFractionDigits, message: Messages.fractionDigits(digits))])
        }
        if number.value < low || number.value > high {
            return .invalid([AnswerIssue(field: name, code: .outOfRange, message: Messages.enterNumber(between: low, and: high, unit: unit))])
        }
        let scaled = number.value / factor
        let rounding = pow(10, Double(digits) + (format.isPercent ? 2 : 0))
        return .answer(.scale((scaled * rounding).rounded() / rounding))
    }

    static func parseNumeric(_ format: NumericFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        let unit = format.shownUnit.map { " " + $0 } ?? ""
        guard let number = NumberParsing.parse(raw, language: context.language) else {
            let message = format.effectiveStyle == .integer ? "Enter a whole number, like 12" : "Enter a number, like 12 or 3.5"
            return .invalid([AnswerIssue(field: name, code: .notANumber, message: Messages.localizeDecimal(message, context))])
        }
        if format.effectiveStyle == .integer, number.fractionDigits > 0 {
            return .invalid([AnswerIssue(field: name, code: .notAWholeNumber, message: "Enter a whole number, like 12")])
        }
        if format.effectiveStyle == .decimal, let digits = format.maximumFractionDigits, number.fractionDigits > digits {
            return .invalid([AnswerIssue(field: name, code: .tooManyFractionDigits, message: Messages.fractionDigits(digits))])
        }
        let tooLow = format.minimum.map { number.value < $0 } ?? false
        let tooHigh = format.maximum.map { number.value > $0 } ?? false
        if tooLow || tooHigh {
            let message: String
            switch (format.minimum, format.maximum) {
            case (let low?, let high?): message = Messages.enterNumber(between: low, and: high, unit: unit)
            case (let low?, nil): message = "Enter a number that is \(Messages.number(low))\(unit) or more"
            case (nil, let high?): message = "Enter a number that is \(Messages.number(high))\(unit) or less"
            default: message = "Enter a number"
            }
            return .invalid([AnswerIssue(field: name, code: .outOfRange, message: message)])
        }
        return .answer(.numeric(number.value))
    }

    static func parseInterval(_ format: TimeIntervalFormat, name: String, fields: FormFields) -> FieldOutcome {
        let hoursText = fields.trimmed(name + ".hours")
        let minutesText = fields.trimmed(name + ".minutes")
        if hoursText == nil, minutesText == nil { return .empty }
        var issues: [AnswerIssue] = []
        let hours = hoursText.map { Int($0) } ?? 0
        let minutes = minutesText.map { Int($0) } ?? 0
        if hours == nil || !(0...23).contains(hours!) {
            issues.append(AnswerIssue(field: name + ".hours", code: .outOfRange, message: "Enter hours from 0 to 23"))
        }
        if minutes == nil || !(0...59).contains(minutes!) {
            issues.append(AnswerIssue(field: name + ".minutes", code: .outOfRange, message: "Enter minutes from 0 to 59"))
        }
        if !issues.isEmpty { return .invalid(issues) }
        if minutes! % format.effectiveStep != 0 {
            return .invalid([AnswerIssue(field: name + ".minutes", code: .notOnInterval,
                                         message: "Enter minutes in steps of \(format.effectiveStep), like \(format.effectiveStep * min(2, 59 / format.effectiveStep))")])
        }
        return .answer(.timeInterval(Double((hours! * 60 + minutes!) * 60)))
    }

    // MARK: Text

    static func parseText(_ format: TextFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields[name] else { return .empty }
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .empty }
        if let limit = format.lengthLimit, text.utf16.count > limit {
            return .invalid([AnswerIssue(field: name, code: .tooLong, message: "Answer must be \(limit) characters or fewer")])
        }
        if let pattern = format.validationRegularExpression, let expression = try? NSRegularExpression(pattern: pattern) {
            let matches = expression.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
            if matches == 0 {
                let template = format.invalidMessage?.resolved(for: context.language) ?? "Check your answer"
                return .invalid([AnswerIssue(field: name, code: .pattern, message: template.replacingOccurrences(of: "%@", with: text))])
            }
        }
        return .answer(.text(text))
    }

    // MARK: Age

    static func parseAge(_ format: AgeFormat, name: String, fields: FormFields, context: AnswerContext) -> FieldOutcome {
        guard let raw = fields.trimmed(name) else { return .empty }
        guard let number = NumberParsing.parse(raw, language: context.language), number.fractionDigits == 0 else {
            return .invalid([AnswerIssue(field: name, code: .notAWholeNumber, message: "Enter an age in whole years, like 42")])
        }
        guard abs(number.value) <= 10_000 else {
            return .invalid([AnswerIssue(field: name, code: .outOfRange,
                                         message: "Enter an age from \(format.effectiveMinimum) to \(format.effectiveMaximum)")])
        }
        let age = Int(number.value)
        if age == AgeFormat.minimumSentinel, format.treatMinAgeAsRange == true { return .answer(.numeric(Double(age))) }
        if age == AgeFormat.maximumSentinel, format.treatMaxAgeAsRange == true { return .answer(.numeric(Double(age))) }
        guard age >= format.effectiveMinimum, age <= format.effectiveMaximum else {
            return .invalid([AnswerIssue(field: name, code: .outOfRange,
                                         message: "Enter an age from \(format.effectiveMinimum) to \(format.effectiveMaximum)")])
        }
        if format.useYearForResult == true {
            let year = format.relativeYear ?? CalendarDate(context.now, in: context.timeZone).year
            return .answer(.numeric(Double(year - age)))
        }
        return .answer(.numeric(Double(age)))
    }
}
