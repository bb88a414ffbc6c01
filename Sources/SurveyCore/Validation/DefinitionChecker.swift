import Foundation

/// The author checks of format v1 that need the whole survey: identifiers, ResearchKit's
/// limits for each answer format, rules and predicates against the steps they name, and
/// reachability. Errors stop a survey from loading; warnings do not.
struct DefinitionChecker {
    let task: SurveyTask
    let log: DiagnosticLog


    func check(resolvingInto resolved: inout SurveyTask) {
        checkIdentifiers()
        checkTask()
        for (index, step) in task.steps.enumerated() {
            checkStep(step, at: .root / "steps" / index)
        }
        checkLanguages()
        resolved.navigationRules = task.navigationRules.map { entry in
            (entry.stepIdentifier, checkNavigationRule(entry.rule, from: entry.stepIdentifier, at: .root / "navigationRules" / entry.stepIdentifier))
        }
        resolved.skipRules = task.skipRules.map { entry in
            (entry.stepIdentifier, checkSkipRule(entry.predicate, for: entry.stepIdentifier, at: .root / "skipRules" / entry.stepIdentifier))
        }
        for (stepIndex, step) in task.steps.enumerated() {
            guard case .form(var content) = step.kind else { continue }
            for (itemIndex, item) in content.items.enumerated() {
                guard case .question(var question) = item, let visibleIf = question.visibleIf else { continue }
                question.visibleIf = checkVisibility(visibleIf, item: question.identifier, itemIndex: itemIndex, in: step,
                                                     at: .root / "steps" / stepIndex / "items" / itemIndex / "visibleIf")
                content.items[itemIndex] = .question(question)
            }
            resolved.steps[stepIndex].kind = .form(content)
        }
        checkReachability()
    }

    // MARK: Identifiers

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isIdentifierStart else { return false }
        return text.unicodeScalars.allSatisfy { $0.isIdentifierStart || $0 == "." || $0 == "_" || $0 == "-" }
    }

    private func checkIdentifier(_ identifier: String, at path: JSONPath, what: String) {
        if log.brokenSteps.contains(identifier) && identifier.hasPrefix("$") { return }
        if identifier.hasPrefix("$") {
            log.error(path, "\(what) \"\(identifier)\" starts with \"$\", which is kept for names such as \"$end\".")
        } else if !Self.isIdentifier(identifier) {
            log.error(path, "\(what) \"\(identifier)\" must start with a letter or digit and hold only letters, digits, \".\", \"_\" and \"-\".")
        }
    }

    private func checkIdentifiers() {
        checkIdentifier(task.identifier, at: .root / "identifier", what: "The survey identifier")
        var seen: [String: Int] = [:]
        for (index, step) in task.steps.enumerated() {
            let path = JSONPath.root / "steps" / index / "identifier"
            checkIdentifier(step.identifier, at: path, what: "The step identifier")
            if let first = seen[step.identifier] {
                log.error(path, "The step identifier \"\(step.identifier)\" is already used by $.steps[\(first)]; step identifiers must be unique.")
            } else {
                seen[step.identifier] = index
            }
            guard case .form(let content) = step.kind else { continue }
            var items: [String: Int] = [:]
            for (itemIndex, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                let itemPath = JSONPath.root / "steps" / index / "items" / itemIndex / "identifier"
                checkIdentifier(question.identifier, at: itemPath, what: "The item identifier")
                if let first = items[question.identifier] {
                    log.error(itemPath, "The item identifier \"\(question.identifier)\" is already used by $.steps[\(index)].items[\(first)] in this form.")
                } else {
                    items[question.identifier] = itemIndex
                }
            }
            for (itemIndex, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                for suffix in AnswerFields.reservedParts.sorted() {
                    guard question.identifier.hasSuffix("." + suffix) else { continue }
                    let base = String(question.identifier.dropLast(suffix.count + 1))
                    if items[base] != nil {
                        log.error(JSONPath.root / "steps" / index / "items" / itemIndex / "identifier",
                                  "The item identifier \"\(question.identifier)\" would share a form field with item \"\(base)\"; choose another.")
                    }
                }
            }
        }
    }

    // MARK: Task and steps

    private func checkTask() {
        if let zone = task.timeZone, TimeZone(identifier: zone) == nil {
            log.error(.root / "timeZone", "\"\(zone)\" is not an IANA time zone such as \"Europe/Paris\".")
        }
        if let languages = task.languages {
            var seen = Set<String>()
            for (index, language) in languages.enumerated() where !seen.insert(language.lowercased()).inserted {
                log.error(.root / "languages" / index, "The language \"\(language)\" is listed twice.")
            }
        }
        if !task.steps.isEmpty, task.steps.allSatisfy({ if case .review = $0.kind { return true } else { return false } }) {
            log.warning(.root / "steps", "The survey has only review steps and so nothing to review.")
        }
    }

    private func checkStep(_ step: Step, at path: JSONPath) {
        if let image = step.image {
            checkImagePath(image, at: path / "image")
            if step.imageAlt == nil {
                log.error(path / "imageAlt", "The step's image needs \"imageAlt\", the text read out to people who cannot see it.")
            }
        } else if step.imageAlt != nil {
            log.warning(path / "imageAlt", "\"imageAlt\" is given but the step has no \"image\".")
        }
        switch step.kind {
        case .question(let content):
            checkFormat(content.answerFormat, at: path / "answerFormat")
        case .form(let content):
            var questions = 0
            for (index, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                questions += 1
                checkFormat(question.answerFormat, at: path / "items" / index / "answerFormat")
            }
            if questions == 0, !log.brokenSteps.contains(step.identifier) {
                log.error(path / "items", "A form needs at least one item with an answer format; this one has only section headers.")
            }
        case .videoInstruction(let content):
            if content.videoURL == nil {
                log.warning(path, "A videoInstruction step without \"videoURL\" shows no video.")
            }
            for (key, url) in [("videoURL", content.videoURL), ("captionsURL", content.captionsURL)] {
                if let url { checkImagePath(url, at: path / key, allowRemote: true) }
            }
        case .instruction, .completion, .review:
            break
        }
    }

    private func checkImagePath(_ path: String, at location: JSONPath, allowRemote: Bool = false) {
        let lowered = path.lowercased()
        if allowRemote, lowered.hasPrefix("https://") || lowered.hasPrefix("http://") { return }
        if lowered.contains(":") || path.hasPrefix("//") {
            log.error(location, "\"\(path)\" must be a path under the served Public folder, such as \"images/scale.png\".")
        } else if path.split(separator: "/").contains("..") || path.contains("\\") {
            log.error(location, "\"\(path)\" must not leave the Public folder (no \"..\" or backslash).")
        }
    }

    // MARK: Languages

    private func checkLanguages() {
        guard let languages = task.languages, !languages.isEmpty else {
            return
        }
        let declared = Set(languages.map { $0.lowercased() })
        for (path, text) in log.texts where text.universal == nil {
            let present = Set(text.translations.map { $0.language.lowercased() })
            for entry in text.translations where !declared.contains(entry.language.lowercased()) {
                log.error(path / entry.language, "The language \"\(entry.language)\" is not in the survey's \"languages\" (\(languages.joined(separator: ", "))).")
            }
            let missing = languages.filter { !present.contains($0.lowercased()) }
            if !missing.isEmpty {
                log.warning(path, "No text for \(missing.joined(separator: ", ")); those participants will see \(text.translations.first?.language ?? "another language").")
            }
        }
    }

    // MARK: Answer formats

    private func checkFormat(_ format: AnswerFormat, at path: JSONPath) {
        switch format {
        case .boolean:
            break
        case .textChoice(let format):
            checkChoices(format.choices, at: path / "choices", allowsOther: true, exclusiveMatters: format.style == .multipleChoice)
        case .valuePicker(let format):
            checkChoices(format.choices, at: path / "choices", allowsOther: false, exclusiveMatters: false)
        case .multipleValuePicker(let format):
            for (index, picker) in format.pickers.enumerated() {
                checkChoices(picker, at: path / "pickers" / index, allowsOther: false, exclusiveMatters: false)
            }
        case .imageChoice(let format):
            var seen: [ChoiceValue: Int] = [:]
            for (index, choice) in format.choices.enumerated() {
                checkImagePath(choice.image, at: path / "choices" / index / "image")
                checkDuplicate(choice.value, index: index, seen: &seen, at: path / "choices" / index / "value")
            }
        case .scale(let format):
            checkScale(format, at: path)
        case .continuousScale(let format):
            checkContinuousScale(format, at: path)
        case .textScale(let format):
            if format.choices.count < 2 {
                log.error(path / "choices", "A text scale needs at least 2 choices; this one has \(format.choices.count).")
            } else if format.choices.count > 8 {
                log.error(path / "choices", "A text scale takes at most 8 choices; this one has \(format.choices.count).")
            }
            checkChoices(format.choices, at: path / "choices", allowsOther: false, exclusiveMatters: false)
            if let index = format.defaultIndex, !format.choices.indices.contains(index) {
                log.warning(path / "defaultIndex", "\"defaultIndex\" \(index) is not a choice's position (0 to \(format.choices.count - 1)), so nothing is chosen by default.")
            }
        case .numeric(let format):
            checkNumeric(format, at: path)
        case .timeOfDay(let format):
            if let text = format.defaultComponents, TimeOfDay(text) == nil {
                log.error(path / "defaultComponents", "\"defaultComponents\" must be a time as \"HH:mm\", such as \"08:30\", not \"\(text)\".")
            }
            if checkMinuteInterval(format.minuteInterval, at: path / "minuteInterval"),
               let text = format.defaultComponents, let time = TimeOfDay(text), time.minute % format.effectiveMinuteInterval != 0 {
                log.warning(path / "defaultComponents", "The default \(text) is not on the \(format.effectiveMinuteInterval)-minute interval.")
            }
        case .date(let format):
            checkDate(format, at: path)
        case .timeInterval(let format):
            if let step = format.step, !(1...30).contains(step) {
                log.error(path / "step", "\"step\" must be from 1 to 30 minutes; it is \(step).")
            }
            if let interval = format.defaultInterval, interval < 0 || interval > 86_340 {
                log.error(path / "defaultInterval", "\"defaultInterval\" must be from 0 to 86340 seconds (23 h 59 min); it is \(JSONWriter.number(interval)).")
            }
        case .text(let format):
            checkText(format, at: path)
        case .email:
            break
        case .height:
            break
        case .weight(let format):
            checkWeight(format, at: path)
        case .age(let format):
            checkAge(format, at: path)
        case .location:
            break
        case .ses:
            break
        }
        if let dontKnow = format.dontKnow, dontKnow.buttonText != nil, dontKnow.show != true {
            log.warning(path / "customDontKnowButtonText", "\"customDontKnowButtonText\" has no effect unless \"showDontKnowButton\" is true.")
        }
    }

    private func checkDuplicate(_ value: ChoiceValue, index: Int, seen: inout [ChoiceValue: Int], at path: JSONPath) {
        // Values travel as form fields, so 1 and "1" would be the same answer.
        let key = ChoiceValue.string(value.formValue)
        if let first = seen[key] {
            log.error(path, "The value \(value.formValue) is already used by choice \(first); each choice needs its own value.")
        } else {
            seen[key] = index
        }
    }

    private func checkChoices(_ choices: [TextChoice], at path: JSONPath, allowsOther: Bool, exclusiveMatters: Bool) {
        var seen: [ChoiceValue: Int] = [:]
        for (index, choice) in choices.enumerated() {
            checkDuplicate(choice.value, index: index, seen: &seen, at: path / index / "value")
            if choice.other != nil, !allowsOther {
                log.error(path / index / "other", "Only a textChoice format can have an \"other\" choice with a text field.")
            }
            if choice.exclusive == true, !exclusiveMatters {
                log.warning(path / index / "exclusive", "\"exclusive\" only matters in a multiple choice; here it has no effect.")
            }
        }
    }

    private func checkScale(_ format: ScaleFormat, at path: JSONPath) {
        if format.minimum < -10_000 {
            log.error(path / "minimum", "A scale's minimum must be -10000 or more; it is \(format.minimum).")
        }
        if format.maximum > 10_000 {
            log.error(path / "maximum", "A scale's maximum must be 10000 or less; it is \(format.maximum).")
        }
        // Bounds that far out would overflow the arithmetic below; their error is enough.
        guard (-10_000...10_000).contains(format.minimum), (-10_000...10_000).contains(format.maximum) else { return }
        if format.maximum < format.minimum {
            log.error(path / "maximum", "A scale's maximum (\(format.maximum)) must not be less than its minimum (\(format.minimum)).")
            return
        }
        let step = format.effectiveStep
        guard step >= 1 else {
            log.error(path / "step", "A scale's step must be 1 or more; it is \(step).")
            return
        }
        let range = format.maximum - format.minimum
        if range % step != 0 {
            log.error(path / "step", "The step (\(step)) must divide the range from \(format.minimum) to \(format.maximum) (\(range)) exactly.")
            return
        }
        let steps = range / step
        if steps < 1 || steps > 13 {
            log.error(path / (format.step == nil ? "maximum" : "step"),
                      "A scale must have from 1 to 13 steps between its minimum and maximum (2 to 14 positions); this one has \(steps).")
        }
        if let value = format.defaultValue, value < format.minimum || value > format.maximum {
            log.warning(path / "defaultValue", "The default \(value) is outside \(format.minimum)–\(format.maximum), so nothing is chosen by default.")
        }
    }

    private func checkContinuousScale(_ format: ContinuousScaleFormat, at path: JSONPath) {
        var digits = format.fractionDigits
        if let given = format.maximumFractionDigits, !(0...4).contains(given) {
            log.error(path / "maximumFractionDigits", "\"maximumFractionDigits\" must be from 0 to 4; it is \(given).")
            digits = min(max(given, 0), 4)
        }
        let limit = 100_000 * pow(10, Double(-digits))
        if format.minimum < -limit {
            log.error(path / "minimum", "With \(digits) fraction digits the minimum must be \(JSONWriter.number(-limit)) or more; it is \(JSONWriter.number(format.minimum)).")
        }
        if format.maximum > limit {
            log.error(path / "maximum", "With \(digits) fraction digits the maximum must be \(JSONWriter.number(limit)) or less; it is \(JSONWriter.number(format.maximum)).")
        }
        if format.maximum <= format.minimum {
            log.error(path / "maximum", "A continuous scale's maximum (\(JSONWriter.number(format.maximum))) must be greater than its minimum (\(JSONWriter.number(format.minimum))).")
        }
        if let value = format.defaultValue, value < format.minimum || value > format.maximum {
            log.warning(path / "defaultValue", "The default \(JSONWriter.number(value)) is outside the scale, so nothing is chosen by default.")
        }
    }

    private func checkNumeric(_ format: NumericFormat, at path: JSONPath) {
        if let minimum = format.minimum, let maximum = format.maximum, maximum < minimum {
            log.error(path / "maximum", "The maximum (\(JSONWriter.number(maximum))) must not be less than the minimum (\(JSONWriter.number(minimum))).")
        }
        if let digits = format.maximumFractionDigits {
            if digits < 0 || digits > 10 {
                log.error(path / "maximumFractionDigits", "\"maximumFractionDigits\" must be from 0 to 10; it is \(digits).")
            } else if format.effectiveStyle == .integer, digits > 0 {
                log.warning(path / "maximumFractionDigits", "An integer answer takes no fraction digits; \"maximumFractionDigits\" is ignored.")
            }
        }
        if let value = format.defaultNumericAnswer {
            if let minimum = format.minimum, value < minimum {
                log.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is below the minimum \(JSONWriter.number(minimum)).")
            }
            if let maximum = format.maximum, value > maximum {
                log.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is above the maximum \(JSONWriter.number(maximum)).")
            }
            if format.effectiveStyle == .integer, value != value.rounded() {
                log.warning(path / "defaultNumericAnswer", "The default \(JSONWriter.number(value)) is not a whole number but the answer must be.")
            }
        }
    }

    /// Whether the interval is usable (absent, or one that divides an hour); logs an error if not.
    @discardableResult
    private func checkMinuteInterval(_ interval: Int?, at path: JSONPath) -> Bool {
        guard let interval else { return true }
        if !(1...30).contains(interval) || 60 % interval != 0 {
            log.error(path, "\"minuteInterval\" must divide an hour and be from 1 to 30 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30); it is \(interval).")
            return false
        }
        return true
    }

    private func checkDate(_ format: DateFormat, at path: JSONPath) {
        let zone = task.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        var instants: [String: Date] = [:]
        for (key, text) in [("minimumDate", format.minimumDate), ("defaultDate", format.defaultDate), ("maximumDate", format.maximumDate)] {
            guard let text else { continue }
            if format.effectiveStyle == .date, CalendarDate(text) == nil, DateTimeParsing.instant(text, defaultZone: zone) == nil {
                log.error(path / key, "\"\(key)\" must be a date as \"YYYY-MM-DD\", not \"\(text)\".")
            } else if let instant = DateTimeParsing.instant(text, defaultZone: zone) {
                instants[key] = instant
            } else {
                log.error(path / key, "\"\(key)\" must be an ISO 8601 date-time such as \"2026-11-21T10:00:00+01:00\", not \"\(text)\".")
            }
        }
        if let minimum = instants["minimumDate"], let maximum = instants["maximumDate"], minimum > maximum {
            log.error(path / "maximumDate", "\"maximumDate\" must not be before \"minimumDate\".")
        }
        if let value = instants["defaultDate"] {
            if let minimum = instants["minimumDate"], value < minimum {
                log.error(path / "defaultDate", "\"defaultDate\" must not be before \"minimumDate\".")
            }
            if let maximum = instants["maximumDate"], value > maximum {
                log.error(path / "defaultDate", "\"defaultDate\" must not be after \"maximumDate\".")
            }
        }
        if let days = format.daysBeforeCurrentDate {
            if days < 0 { log.error(path / "daysBeforeCurrentDate", "\"daysBeforeCurrentDate\" must be 0 or more; it is \(days).") }
            if format.minimumDate != nil {
                log.error(path / "daysBeforeCurrentDate", "Give either \"minimumDate\" or \"daysBeforeCurrentDate\", not both.")
            }
        }
        if let days = format.daysAfterCurrentDate {
            if days < 0 { log.error(path / "daysAfterCurrentDate", "\"daysAfterCurrentDate\" must be 0 or more; it is \(days).") }
            if format.maximumDate != nil {
                log.error(path / "daysAfterCurrentDate", "Give either \"maximumDate\" or \"daysAfterCurrentDate\", not both.")
            }
        }
        checkMinuteInterval(format.minuteInterval, at: path / "minuteInterval")
        if format.minuteInterval != nil, format.effectiveStyle == .date {
            log.warning(path / "minuteInterval", "\"minuteInterval\" only matters for the \"dateAndTime\" style.")
        }
    }

    private func checkText(_ format: TextFormat, at path: JSONPath) {
        if let length = format.maximumLength, length < 0 {
            log.error(path / "maximumLength", "\"maximumLength\" must be 0 (no limit) or more; it is \(length).")
        }
        switch (format.validationRegularExpression, format.invalidMessage) {
        case (let pattern?, _?):
            if (try? NSRegularExpression(pattern: pattern)) == nil {
                log.error(path / "validationRegularExpression", "The regular expression \"\(pattern)\" does not compile.")
            }
        case (_?, nil):
            log.error(path / "invalidMessage", "\"validationRegularExpression\" needs an \"invalidMessage\" telling the participant what to enter.")
        case (nil, _?):
            log.error(path / "validationRegularExpression", "\"invalidMessage\" needs a \"validationRegularExpression\" to go with it.")
        case (nil, nil):
            break
        }
        if let text = format.defaultTextAnswer, let limit = format.lengthLimit, text.utf16.count > limit {
            log.warning(path / "defaultTextAnswer", "The default text is longer than \"maximumLength\" (\(limit)).")
        }
    }

    private func checkWeight(_ format: WeightFormat, at path: JSONPath) {
        if let minimum = format.minimumValue, minimum < 0 {
            log.error(path / "minimumValue", "\"minimumValue\" must be 0 or more; it is \(JSONWriter.number(minimum)).")
        }
        if let minimum = format.minimumValue, let maximum = format.maximumValue, maximum < minimum {
            log.error(path / "maximumValue", "\"maximumValue\" (\(JSONWriter.number(maximum))) must not be less than \"minimumValue\" (\(JSONWriter.number(minimum))).")
        }
        if let value = format.defaultValue {
            if let minimum = format.minimumValue, value < minimum {
                log.error(path / "defaultValue", "\"defaultValue\" must not be below \"minimumValue\".")
            }
            if let maximum = format.maximumValue, value > maximum {
                log.error(path / "defaultValue", "\"defaultValue\" must not be above \"maximumValue\".")
            }
        }
    }

    private func checkAge(_ format: AgeFormat, at path: JSONPath) {
        if format.effectiveMinimum < 0 {
            log.error(path / "minimumAge", "\"minimumAge\" must be 0 or more; it is \(format.effectiveMinimum).")
        }
        if format.effectiveMaximum > 150 {
            log.error(path / "maximumAge", "\"maximumAge\" must be 150 or less; it is \(format.effectiveMaximum).")
        }
        if format.effectiveMinimum >= format.effectiveMaximum {
            log.error(path / (format.maximumAge == nil ? "minimumAge" : "maximumAge"),
                      "\"minimumAge\" (\(format.effectiveMinimum)) must be less than \"maximumAge\" (\(format.effectiveMaximum)).")
        }
        if let value = format.defaultValue, value < format.effectiveMinimum || value > format.effectiveMaximum {
            log.warning(path / "defaultValue", "The default age \(value) is outside \(format.effectiveMinimum)–\(format.effectiveMaximum).")
        }
        if let year = format.relativeYear, !(1...9999).contains(year) {
            log.error(path / "relativeYear", "\"relativeYear\" must be a year from 1 to 9999; it is \(year).")
        }
    }

    // MARK: Rules and predicates

    private func checkStepReference(_ identifier: String, at path: JSONPath, what: String) -> Bool {
        guard task.step(identifier) == nil else { return !log.brokenSteps.contains(identifier) }
        var message = "\(what) names the step \"\(identifier)\", which the survey does not have."
        if let suggestion = Suggestion.closest(to: identifier, in: task.steps.map(\.identifier)) { message += " Did you mean \"\(suggestion)\"?" }
        log.error(path, message)
        return false
    }

    private func checkDestination(_ destination: Destination, at path: JSONPath) {
        if case .step(let identifier) = destination {
            _ = checkStepReference(identifier, at: path, what: "The destination")
        }
    }

    private func checkNavigationRule(_ rule: NavigationRule, from identifier: String, at path: JSONPath) -> NavigationRule {
        let exists = checkStepReference(identifier, at: path, what: "This rule")
        if exists, task.step(identifier)?.isCompletion == true {
            log.warning(path, "A navigation rule on a completion step never runs: arriving there ends the survey.")
        }
        switch rule {
        case .direct(let destination):
            checkDestination(destination, at: path / "destination")
            if case .step(identifier) = destination {
                log.warning(path / "destination", "This rule always returns to its own step, so the participant can never leave it.")
            }
            return rule
        case .predicate(let rules, let fallback):
            var resolved: [ConditionalDestination] = []
            for (index, entry) in rules.enumerated() {
                checkDestination(entry.destination, at: path / "rules" / index / "destination")
                let predicate = checkPredicate(entry.predicate, at: path / "rules" / index / "if",
                                               context: exists ? .afterStep(identifier) : .unknown)
                resolved.append(ConditionalDestination(if: predicate, destination: entry.destination))
            }
            if let fallback { checkDestination(fallback, at: path / "default") }
            return .predicate(rules: resolved, default: fallback)
        }
    }

    private func checkSkipRule(_ predicate: Predicate, for identifier: String, at path: JSONPath) -> Predicate {
        let exists = checkStepReference(identifier, at: path, what: "This skip rule")
        return checkPredicate(predicate, at: path, context: exists ? .beforeStep(identifier) : .unknown)
    }

    private func checkVisibility(_ predicate: Predicate, item: String, itemIndex: Int, in step: Step, at path: JSONPath) -> Predicate {
        checkPredicate(predicate, at: path, context: .formItem(step: step.identifier, itemIndex: itemIndex))
    }

    /// Where a predicate is evaluated, which decides which results can exist by then.
    enum PredicateContext {
        /// After the participant answers this step (a navigation rule).
        case afterStep(String)
        /// On arrival at this step, before it is answered (a skip rule).
        case beforeStep(String)
        /// For a form item, on answers saved before it (visibility).
        case formItem(step: String, itemIndex: Int)
        case unknown
    }

    private func checkPredicate(_ predicate: Predicate, at path: JSONPath, context: PredicateContext) -> Predicate {
        switch predicate {
        case .not(let inner):
            return .not(checkPredicate(inner, at: path / "not", context: context))
        case .all(let list):
            return .all(list.enumerated().map { checkPredicate($0.element, at: path / "all" / $0.offset, context: context) })
        case .any(let list):
            return .any(list.enumerated().map { checkPredicate($0.element, at: path / "any" / $0.offset, context: context) })
        default:
            break
        }
        guard let selector = predicate.selectors.first, let target = resolve(selector, at: path / "result") else { return predicate }
        let resolved = predicate.replacingSelector(target.selector)
        checkOrder(target, at: path / "result", context: context)
        checkFit(resolved, format: target.format, at: path)
        return resolved
    }

    struct Target {
        let selector: ResultSelector
        let format: AnswerFormat
        let stepIndex: Int
        let itemIndex: Int?
    }

    /// Finds the question a selector names, trying every split of "step.item" since identifiers may hold dots.
    private func resolve(_ selector: ResultSelector, at path: JSONPath) -> Target? {
        var matches: [Target] = []
        let raw = selector.raw
        for (stepIndex, step) in task.steps.enumerated() {
            if step.identifier == raw, case .question(let content) = step.kind {
                matches.append(Target(selector: ResultSelector(step: raw, item: nil), format: content.answerFormat, stepIndex: stepIndex, itemIndex: nil))
            }
            if raw.hasPrefix(step.identifier + "."), case .form(let content) = step.kind {
                let itemIdentifier = String(raw.dropFirst(step.identifier.count + 1))
                for (itemIndex, item) in content.items.enumerated() {
                    if case .question(let question) = item, question.identifier == itemIdentifier {
                        matches.append(Target(selector: ResultSelector(step: step.identifier, item: itemIdentifier),
                                              format: question.answerFormat, stepIndex: stepIndex, itemIndex: itemIndex))
                    }
                }
            }
        }
        if matches.isEmpty, log.brokenSteps.contains(where: { raw == $0 || raw.hasPrefix($0 + ".") }) {
            // The step could not be read; its error is already reported.
            return nil
        }
        if matches.count > 1 {
            log.error(path, "\"\(raw)\" could name more than one question; rename a step or item so that it names one.")
            return nil
        }
        if let match = matches.first { return match }
        if let step = task.step(raw) {
            if case .form = step.kind {
                log.error(path, "\"\(raw)\" is a form; name one of its items as \"\(raw).itemId\".")
            } else {
                log.error(path, "\"\(raw)\" is a \(step.kind.typeName) step, which asks no question and has no answer to test.")
            }
            return nil
        }
        var names: [String] = []
        for step in task.steps {
            switch step.kind {
            case .question: names.append(step.identifier)
            case .form(let content):
                for case .question(let question) in content.items { names.append(step.identifier + "." + question.identifier) }
            default: break
            }
        }
        var message = "\"\(raw)\" names no question of this survey; use \"stepId\" for a question step or \"stepId.itemId\" for a form item."
        if let suggestion = Suggestion.closest(to: raw, in: names) { message += " Did you mean \"\(suggestion)\"?" }
        log.error(path, message)
        return nil
    }

    private func checkOrder(_ target: Target, at path: JSONPath, context: PredicateContext) {
        let graph = StepGraph(task: task)
        let sourceStep = task.steps[target.stepIndex].identifier
        switch context {
        case .afterStep(let identifier):
            guard let triggerIndex = task.index(of: identifier) else { return }
            if target.stepIndex != triggerIndex, !graph.canReach(from: target.stepIndex, to: triggerIndex) {
                log.warning(path, "This rule can never test \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(identifier)\".")
            }
        case .beforeStep(let identifier):
            guard let skippedIndex = task.index(of: identifier) else { return }
            if target.stepIndex == skippedIndex {
                log.warning(path, "A skip rule is checked on arrival, before \"\(identifier)\" is answered, so it cannot test that step's own answer.")
            } else if !graph.canReach(from: target.stepIndex, to: skippedIndex) {
                log.warning(path, "This skip rule can never test \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(identifier)\".")
            }
        case .formItem(let stepIdentifier, let itemIndex):
            guard let formIndex = task.index(of: stepIdentifier) else { return }
            if target.stepIndex == formIndex {
                if let targetItem = target.itemIndex, targetItem >= itemIndex {
                    log.error(path, "An item can only depend on an item above it in the same form; \"\(target.selector.raw)\" is not above it.")
                }
            } else if !graph.canReach(from: target.stepIndex, to: formIndex) {
                log.warning(path, "This visibility rule can never see \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(stepIdentifier)\".")
            }
        case .unknown:
            break
        }
    }

    private func checkFit(_ predicate: Predicate, format: AnswerFormat, at path: JSONPath) {
        let type = format.resultType
        let typeName = format.typeName
        func misfit(_ key: String, _ expectation: String) {
            log.error(path / key, "\"\(key)\" cannot test a \(typeName) answer; \(expectation).")
        }
        switch predicate {
        case .equals(_, let expected):
            switch expected {
            case .bool:
                if type != .boolean { misfit("equals", "true or false tests only a boolean answer") }
            case .number(let number):
                guard [.numeric, .scale, .timeInterval, .ses].contains(type) else {
                    misfit("equals", type == .choice ? "use \"choice\" for a choice answer" : "a number tests only numeric, scale, time interval or ladder answers")
                    return
                }
                if let range = numericRange(of: format), !range.contains(number) {
                    log.warning(path / "equals", "\(JSONWriter.number(number)) is outside the answers this question accepts, so the test never holds.")
                }
            case .string:
                if type != .text { misfit("equals", type == .choice ? "use \"choice\" for a choice answer" : "a string tests only a text answer") }
            }
        case .choice(_, let value):
            guard type == .choice || type == .multipleComponent else {
                misfit("choice", "it tests only choice answers")
                return
            }
            checkChoiceValue(value, format: format, at: path / "choice")
        case .choices(_, let values):
            guard type == .choice || type == .multipleComponent else {
                misfit("choices", "it tests only choice answers")
                return
            }
            for (index, value) in values.enumerated() { checkChoiceValue(value, format: format, at: path / "choices" / index) }
            if case .textChoice(let choiceFormat) = format, choiceFormat.style == .singleChoice {
                log.warning(path / "choices", "A single choice answer holds one value, so a test that all of \(values.count) are chosen never holds.")
            }
        case .matches:
            if ![.text, .choice, .multipleComponent].contains(type) { misfit("matches", "it tests only text and choice answers") }
        case .range(_, let minimum, let maximum):
            let key = minimum != nil ? "minimum" : "maximum"
            switch (minimum, maximum) {
            case (.date?, .number?), (.number?, .date?):
                log.error(path, "\"minimum\" and \"maximum\" must both be numbers or both be dates.")
                return
            default: break
            }
            let isDate: Bool = { if case .date? = minimum { return true }; if case .date? = maximum { return true }; return false }()
            if isDate {
                guard type == .date else { misfit(key, "a date bound tests only a date answer"); return }
                let zone = task.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
                if case .date(let low)? = minimum, case .date(let high)? = maximum,
                   let lowDate = DateTimeParsing.instant(low, defaultZone: zone), let highDate = DateTimeParsing.instant(high, defaultZone: zone), lowDate > highDate {
                    log.error(path / "maximum", "\"maximum\" must not be before \"minimum\".")
                }
            } else {
                guard [.numeric, .scale, .timeInterval, .ses].contains(type) else {
                    misfit(key, type == .date ? "a date answer needs dates as bounds" : "a range tests only numeric, scale, time interval, ladder or date answers")
                    return
                }
                if case .number(let low)? = minimum, case .number(let high)? = maximum, low > high {
                    log.error(path / "maximum", "\"maximum\" (\(JSONWriter.number(high))) must not be less than \"minimum\" (\(JSONWriter.number(low))).")
                    return
                }
                if let range = numericRange(of: format) {
                    if case .number(let low)? = minimum, low > range.upperBound {
                        log.warning(path / "minimum", "No accepted answer reaches \(JSONWriter.number(low)), so the test never holds.")
                    }
                    if case .number(let high)? = maximum, high < range.lowerBound {
                        log.warning(path / "maximum", "No accepted answer is as low as \(JSONWriter.number(high)), so the test never holds.")
                    }
                }
            }
        case .timeRange(_, let minimum, let maximum):
            guard type == .timeOfDay else {
                misfit(minimum != nil ? "minimumTime" : "maximumTime", "it tests only a time of day answer")
                return
            }
            if let low = minimum.flatMap(TimeOfDay.init), let high = maximum.flatMap(TimeOfDay.init), low > high {
                log.error(path / "maximumTime", "\"maximumTime\" must not be before \"minimumTime\"; times are compared within one day.")
            }
        case .isNil:
            break
        case .dontKnow:
            guard let option = format.dontKnow else {
                misfit("dontKnow", "a \(typeName) question offers no \"I don't know\" answer")
                return
            }
            if option.show != true {
                log.warning(path / "dontKnow", "The question does not show a don't-know button (\"showDontKnowButton\"), so this test never holds.")
            }
        case .not, .all, .any:
            break
        }
    }

    private func checkChoiceValue(_ value: ChoiceValue, format: AnswerFormat, at path: JSONPath) {
        guard let values = format.choiceValues else { return }
        if case .textChoice(let choiceFormat) = format, choiceFormat.choices.contains(where: { $0.other != nil }) { return }
        if !values.contains(value) {
            var message = "No choice has the value \(value.formValue)"
            if values.contains(where: { $0.formValue == value.formValue }) {
                message += " of this type (a number and a string differ)"
            }
            log.warning(path, message + ", so the test never holds.")
        }
    }

    /// The numbers a question can record, where the format bounds them.
    private func numericRange(of format: AnswerFormat) -> ClosedRange<Double>? {
        switch format {
        case .scale(let scale) where scale.maximum >= scale.minimum:
            return Double(scale.minimum)...Double(scale.maximum)
        case .continuousScale(let scale) where scale.maximum >= scale.minimum:
            return scale.minimum...scale.maximum
        case .numeric(let numeric):
            return (numeric.minimum ?? -.infinity)...max(numeric.maximum ?? .infinity, numeric.minimum ?? -.infinity)
        case .ses:
            return 1...Double(SESFormat.rungCount)
        case .timeInterval:
            return 0...86_340
        default:
            return nil
        }
    }

    // MARK: Reachability

    private func checkReachability() {
        guard !task.steps.isEmpty else { return }
        let graph = StepGraph(task: task)
        let reachable = graph.reachable(from: 0)
        for (index, step) in task.steps.enumerated() where !reachable.contains(index) {
            log.warning(.root / "steps" / index, "The step \"\(step.identifier)\" can never be reached: no step or rule leads to it.")
        }
        for entry in task.navigationRules {
            guard case .predicate(let rules, _) = entry.rule, rules.count > 1 else { continue }
            var seen: [Predicate: Int] = [:]
            for (index, rule) in rules.enumerated() {
                if let first = seen[rule.predicate] {
                    log.warning(.root / "navigationRules" / entry.stepIdentifier / "rules" / index,
                                "This rule repeats the test of rule \(first), which always wins, so it never fires.")
                } else {
                    seen[rule.predicate] = index
                }
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isIdentifierStart: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

extension Predicate {
    /// The same test on a resolved selector.
    func replacingSelector(_ selector: ResultSelector) -> Predicate {
        switch self {
        case .equals(_, let value): return .equals(selector, value)
        case .choice(_, let value): return .choice(selector, value)
        case .choices(_, let values): return .choices(selector, values)
        case .matches(_, let pattern): return .matches(selector, pattern)
        case .range(_, let minimum, let maximum): return .range(selector, minimum: minimum, maximum: maximum)
        case .timeRange(_, let minimum, let maximum): return .timeRange(selector, minimum: minimum, maximum: maximum)
        case .isNil(_, let flag): return .isNil(selector, flag)
        case .dontKnow(_, let flag): return .dontKnow(selector, flag)
        case .not, .all, .any: return self
        }
    }
}

/// The steps as a graph of "can come next", for reachability and rule-order warnings.
struct StepGraph {
    let successors: [[Int]]

    init(task: SurveyTask) {
        var successors: [[Int]] = []
        for (index, step) in task.steps.enumerated() {
            if step.isCompletion {
                successors.append([])
                continue
            }
            let next = index + 1 < task.steps.count ? index + 1 : nil
            guard let rule = task.navigationRule(for: step.identifier) else {
                successors.append(next.map { [$0] } ?? [])
                continue
            }
            var targets: [Int] = []
            for destination in rule.possibleDestinations {
                switch destination {
                case nil: if let next { targets.append(next) }
                case .end?: break
                case .step(let identifier)?: if let target = task.index(of: identifier) { targets.append(target) }
                }
            }
            successors.append(targets)
        }
        self.successors = successors
    }

    func reachable(from start: Int) -> Set<Int> {
        var seen: Set<Int> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            for next in successors[current] where seen.insert(next).inserted {
                stack.append(next)
            }
        }
        return seen
    }

    /// True when a path of at least one move leads from `source` to `target`.
    func canReach(from source: Int, to target: Int) -> Bool {
        var seen: Set<Int> = []
        var stack = successors[source]
        while let current = stack.popLast() {
            if current == target { return true }
            if seen.insert(current).inserted { stack.append(contentsOf: successors[current]) }
        }
        return false
    }
}
