import Foundation
import JSON

/// Reads a survey file's JSON into the model, collecting every structural fault
/// (wrong types, missing or unknown keys) with its path.
struct SurveyDecoding {
    let log: DiagnosticLog

    func task(_ value: JSONValue) -> SurveyTask? {
        guard let reader = ObjectReader(value, at: .root, log: log, what: "A survey file") else { return nil }
        let identifier = reader.string("identifier", required: true)
        let title = reader.text("title")
        var steps: [Step] = []
        if let elements = reader.array("steps", required: true, minimumCount: 1) {
            // A step that cannot be read keeps its place, so later paths stay right.
            steps = elements.enumerated().map { index, element in
                if let step = step(element.value, at: element.path) { return step }
                var identifier = "$\(index)"
                if case .object(let object) = element.value, case .string(let given)? = object["identifier"] { identifier = given }
                log.brokenSteps.insert(identifier)
                return Step(identifier: identifier, kind: .instruction)
            }
        }
        var navigationRules: [(String, NavigationRule)] = []
        if let rules = reader.objectReader("navigationRules") {
            for (key, value) in rules.object.entries {
                rules.accept(key)
                if let rule = navigationRule(value, at: rules.path / key) { navigationRules.append((key, rule)) }
            }
        }
        var skipRules: [(String, Predicate)] = []
        if let rules = reader.objectReader("skipRules") {
            for (key, value) in rules.object.entries {
                rules.accept(key)
                if let predicate = predicate(value, at: rules.path / key) { skipRules.append((key, predicate)) }
            }
        }
        let shouldReportProgress = reader.bool("shouldReportProgress")
        var languages: [String]?
        if let elements = reader.array("languages") {
            languages = elements.compactMap { element in
                guard case .string(let tag) = element.value, ObjectReader.isLanguageTag(tag) else {
                    log.error(element.path, "Each language must be a BCP 47 tag such as \"en\" or \"pt-BR\".")
                    return nil
                }
                return tag
            }
        }
        let timeZone = reader.string("timeZone")
        let showAnswers = reader.bool("showAnswersOnCompletion")
        let kioskIdle = reader.enumeration("kioskIdle", KioskIdlePolicy.self)
        let variables = variables(reader)
        let fhir = reader.opaqueObject("fhir")
        let redcap = reader.opaqueObject("redcap")
        let consent = consentDocument(reader)
        let panel = panelKeys(reader)
        reader.finish("A survey")
        guard let identifier else { return nil }
        var task = SurveyTask(identifier: identifier, title: title, steps: steps, navigationRules: navigationRules,
                              skipRules: skipRules, shouldReportProgress: shouldReportProgress, languages: languages, timeZone: timeZone,
                              showAnswersOnCompletion: showAnswers, kioskIdle: kioskIdle)
        task.variables = variables
        task.fhir = fhir
        task.redcap = redcap
        task.consentDocument = consent
        panel.apply(to: &task)
        return task
    }

    // MARK: Steps

    func step(_ value: JSONValue, at path: JSONPath) -> Step? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A step") else { return nil }
        let identifier = reader.string("identifier", required: true)
        let typeName = reader.string("type", required: true)
        let title = reader.text("title")
        let text = reader.text("text")
        let detailText = reader.text("detailText")
        let footnote = reader.text("footnote")
        let image = reader.string("image", nonEmpty: true)
        let imageAlt = reader.text("imageAlt")
        let optional = reader.bool("optional")
        let showsProgress = reader.bool("showsProgress")
        var learnMore: LearnMore?
        if let learn = reader.objectReader("learnMore", what: "\"learnMore\"") {
            let learnTitle = learn.text("title")
            if let learnText = learn.text("text", required: true) { learnMore = LearnMore(title: learnTitle, text: learnText) }
            learn.finish("\"learnMore\"")
        }
        let variables = variables(reader)
        let fhir = reader.opaqueObject("fhir")
        let redcap = reader.opaqueObject("redcap")
        var kind: StepKind?
        var screensOut: Bool?
        switch typeName {
        case "instruction": kind = .instruction
        case "completion":
            kind = .completion
            screensOut = reader.bool("screensOut")
        case "allocation":
            kind = allocation(reader).map(StepKind.allocation)
        case "question":
            let question = reader.text("question")
            let placeholder = reader.text("placeholder")
            if let formatValue = reader.value("answerFormat", required: true), let format = answerFormat(formatValue, at: path / "answerFormat") {
                kind = .question(QuestionContent(question: question, placeholder: placeholder, answerFormat: format, behaviour: behaviour(reader)))
            }
        case "form":
            let footerText = reader.text("footerText")
            if let elements = reader.array("items", required: true, minimumCount: 1) {
                // An item that cannot be read keeps its place as an empty header, so later paths stay right.
                let items = elements.map { formItem($0.value, at: $0.path) }
                if items.contains(where: { $0 == nil }), let identifier { log.brokenSteps.insert(identifier) }
                kind = .form(FormContent(items: items.map { $0 ?? .section(SectionHeader(sectionTitle: "")) }, footerText: footerText,
                                         repeating: formRepeat(reader, at: path), grid: reader.bool("grid")))
            }
        case "review":
            kind = .review(ReviewContent(excludeInstructionSteps: reader.bool("excludeInstructionSteps")))
        case "videoInstruction":
            kind = .videoInstruction(VideoContent(videoURL: reader.string("videoURL", nonEmpty: true), captionsURL: reader.string("captionsURL", nonEmpty: true)))
        case "visualConsent"?, "consentSharing"?, "consentReview"?:
            kind = consentStepKind(typeName!, reader)
        case nil:
            break
        case let other?:
            var message = "\"\(other)\" is not a step type; use one of \(StepKind.typeNames.map { "\"\($0)\"" }.joined(separator: ", "))."
            if let suggestion = Suggestion.closest(to: other, in: StepKind.typeNames) { message += " Did you mean \"\(suggestion)\"?" }
            log.error(path / "type", message)
            return nil
        }
        reader.finish(typeName.map { "A \($0) step" } ?? "A step")
        guard let identifier, let kind else { return nil }
        var step = Step(identifier: identifier, kind: kind, title: title, text: text, detailText: detailText, footnote: footnote,
                        image: image, imageAlt: imageAlt, optional: optional, showsProgress: showsProgress, learnMore: learnMore,
                        variables: variables, fhir: fhir)
        step.screensOut = screensOut
        step.redcap = redcap
        return step
    }

    func formItem(_ value: JSONValue, at path: JSONPath) -> FormItem? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A form item") else { return nil }
        if reader.has("sectionTitle") && !reader.has("identifier") && !reader.has("answerFormat") {
            let sectionTitle = reader.text("sectionTitle", required: true)
            let detailText = reader.text("detailText")
            let fhir = reader.opaqueObject("fhir")
            reader.finish("A section header")
            return sectionTitle.map { .section(SectionHeader(sectionTitle: $0, detailText: detailText, fhir: fhir)) }
        }
        if reader.has("note") && !reader.has("identifier") && !reader.has("answerFormat") {
            return note(reader, at: path)
        }
        let identifier = reader.string("identifier", required: true)
        let text = reader.text("text")
        let detailText = reader.text("detailText")
        let placeholder = reader.text("placeholder")
        let optional = reader.bool("optional")
        var format: AnswerFormat?
        if let formatValue = reader.value("answerFormat", required: true) {
            format = answerFormat(formatValue, at: path / "answerFormat")
        }
        let visibleIf = reader.value("visibleIf").flatMap { predicate($0, at: path / "visibleIf") }
        var behaviour = behaviour(reader)
        behaviour.variables = variables(reader)
        behaviour.fhir = reader.opaqueObject("fhir")
        behaviour.redcap = reader.opaqueObject("redcap")
        reader.finish("A form item")
        guard let identifier, let format else { return nil }
        return .question(FormQuestion(identifier: identifier, text: text, detailText: detailText, placeholder: placeholder,
                                      optional: optional, answerFormat: format, visibleIf: visibleIf, behaviour: behaviour))
    }

    // MARK: Answer formats

    func answerFormat(_ value: JSONValue, at path: JSONPath) -> AnswerFormat? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "An answer format") else { return nil }
        guard let typeName = reader.string("type", required: true) else {
            reader.finish("An answer format")
            return nil
        }
        guard let rules = AnswerFormat.registry.first(where: { $0.typeName == typeName }) else {
            var message = "\"\(typeName)\" is not an answer format; use one of \(AnswerFormat.typeNames.map { "\"\($0)\"" }.joined(separator: ", "))."
            if let suggestion = Suggestion.closest(to: typeName, in: AnswerFormat.typeNames) { message += " Did you mean \"\(suggestion)\"?" }
            log.error(path / "type", message)
            return nil
        }
        let format = rules.decode(reader)
        reader.finish("A \(typeName) answer format")
        return format
    }

    // MARK: Navigation

    func navigationRule(_ value: JSONValue, at path: JSONPath) -> NavigationRule? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A navigation rule") else { return nil }
        let typeName = reader.string("type", required: true)
        var rule: NavigationRule?
        switch typeName {
        case "predicate":
            var conditions: [ConditionalDestination] = []
            var complete = true
            if let elements = reader.array("rules", required: true, minimumCount: 1) {
                for element in elements {
                    guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A rule") else {
                        complete = false
                        continue
                    }
                    let condition = entry.value("if", required: true).flatMap { predicate($0, at: element.path / "if") }
                    let destination = entry.string("destination", required: true, nonEmpty: true)
                    entry.finish("A rule")
                    if let condition, let destination {
                        conditions.append(ConditionalDestination(if: condition, destination: Destination(destination)))
                    } else {
                        complete = false
                    }
                }
            } else {
                complete = false
            }
            let fallback = reader.string("default", nonEmpty: true).map(Destination.init)
            if complete { rule = .predicate(rules: conditions, default: fallback) }
        case "direct":
            rule = reader.string("destination", required: true, nonEmpty: true).map { .direct(Destination($0)) }
        case nil:
            break
        case let other?:
            var message = "\"\(other)\" is not a navigation rule type; use \"predicate\" or \"direct\"."
            if let suggestion = Suggestion.closest(to: other, in: ["predicate", "direct"]) { message += " Did you mean \"\(suggestion)\"?" }
            log.error(path / "type", message)
        }
        reader.finish(typeName.map { "A \($0) navigation rule" } ?? "A navigation rule")
        return rule
    }

    static let predicateKeys = ["equals", "choice", "choices", "matches", "minimum", "maximum", "minimumTime", "maximumTime",
                                "isNil", "dontKnow", "answered", "compare", "value", "not", "all", "any"]

    func predicate(_ value: JSONValue, at path: JSONPath) -> Predicate? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A predicate") else { return nil }
        if reader.has("not") || reader.has("all") || reader.has("any") {
            let present = ["not", "all", "any"].filter(reader.has)
            if present.count > 1 || reader.has("result") {
                log.error(path, "A predicate joins others with exactly one of \"not\", \"all\" or \"any\", and names no \"result\" itself.")
                return nil
            }
            var result: Predicate?
            if let inner = reader.value("not") {
                result = predicate(inner, at: path / "not").map(Predicate.not)
            } else {
                let key = present[0]
                if let elements = reader.array(key, required: true, minimumCount: 1) {
                    let parts = elements.compactMap { predicate($0.value, at: $0.path) }
                    if parts.count == elements.count, !elements.isEmpty { result = key == "all" ? .all(parts) : .any(parts) }
                }
            }
            reader.finish("A compound predicate")
            return result
        }
        if reader.has("expression") && !reader.has("result") {
            return expressionPredicate(reader, at: path)
        }
        let selector = reader.string("result", required: true, nonEmpty: true).map(ResultSelector.init)
        let tests = Self.predicateKeys.filter { $0 != "value" && reader.has($0) }
        let kinds = Set(tests.map { key -> String in
            switch key {
            case "minimum", "maximum": return "range"
            case "minimumTime", "maximumTime": return "time"
            default: return key
            }
        })
        if kinds.isEmpty {
            reader.accept(contentsOf: Self.predicateKeys)
            reader.finish("A predicate")
            log.error(path, "A predicate needs a test: one of \"equals\", \"choice\", \"choices\", \"matches\", \"minimum\"/\"maximum\", \"minimumTime\"/\"maximumTime\", \"isNil\", \"dontKnow\", \"answered\" or \"compare\", or be an \"expression\".")
            return nil
        }
        if kinds.count > 1 {
            reader.accept(contentsOf: Self.predicateKeys)
            reader.finish("A predicate")
            log.error(path, "A predicate makes one test; this one has \(tests.map { "\"\($0)\"" }.joined(separator: " and ")). Combine tests with \"all\".")
            return nil
        }
        if reader.has("value"), kinds.first != "compare" {
            reader.accept(contentsOf: Self.predicateKeys)
            reader.finish("A predicate")
            log.error(path / "value", "\"value\" goes with \"compare\" only.")
            return nil
        }
        var result: Predicate?
        switch kinds.first! {
        case "equals":
            if let raw = reader.value("equals") {
                switch raw {
                case .bool(let flag): result = selector.map { .equals($0, .bool(flag)) }
                case .number(let number): result = selector.map { .equals($0, .number(number)) }
                case .string(let text): result = selector.map { .equals($0, .string(text)) }
                default: log.error(path / "equals", "\"equals\" must be true, false, a number or a string, not \(raw.typeDescription).")
                }
            }
        case "choice":
            if let raw = reader.value("choice") {
                if let choice = ChoiceValue(json: raw) {
                    result = selector.map { .choice($0, choice) }
                } else {
                    log.error(path / "choice", "\"choice\" must be a string or a number, not \(raw.typeDescription).")
                }
            }
        case "choices":
            if let elements = reader.array("choices", required: true, minimumCount: 1) {
                let values = elements.compactMap { element -> ChoiceValue? in
                    guard let value = ChoiceValue(json: element.value) else {
                        log.error(element.path, "Each expected choice must be a string or a number, not \(element.value.typeDescription).")
                        return nil
                    }
                    return value
                }
                if values.count == elements.count, !values.isEmpty { result = selector.map { .choices($0, values) } }
            }
        case "matches":
            if let pattern = reader.string("matches", required: true) {
                if BoundedRegex.check(pattern, at: path / "matches", log) {
                    result = selector.map { .matches($0, pattern) }
                }
            }
        case "range":
            let minimum = rangeBound(reader, "minimum")
            let maximum = rangeBound(reader, "maximum")
            if minimum.ok, maximum.ok { result = selector.map { .range($0, minimum: minimum.bound, maximum: maximum.bound) } }
        case "time":
            let minimum = reader.string("minimumTime")
            let maximum = reader.string("maximumTime")
            var ok = true
            for (key, text) in [("minimumTime", minimum), ("maximumTime", maximum)] {
                if let text, TimeOfDay(text) == nil {
                    log.error(path / key, "\"\(key)\" must be a time as \"HH:mm\", such as \"09:30\", not \"\(text)\".")
                    ok = false
                }
            }
            if ok { result = selector.map { .timeRange($0, minimum: minimum, maximum: maximum) } }
        case "isNil":
            if let flag = reader.bool("isNil") { result = selector.map { .isNil($0, flag) } }
        case "dontKnow":
            if let flag = reader.bool("dontKnow") { result = selector.map { .dontKnow($0, flag) } }
        case "answered", "compare":
            result = fhirTest(kinds.first!, reader, selector: selector, at: path)
        default:
            break
        }
        // On a repeating form's item: "any" instance (the default) or "all" of them must pass.
        switch reader.string("instances") {
        case "all"?: result = result.map(Predicate.everyInstance)
        case "any"?, nil: break
        case let other?: log.error(path / "instances", "\"instances\" is \"any\" or \"all\", not \"\(other)\".")
        }
        reader.accept(contentsOf: Self.predicateKeys)
        reader.finish("A predicate")
        return result
    }

    private func rangeBound(_ reader: ObjectReader, _ key: String) -> (bound: RangeBound?, ok: Bool) {
        guard let raw = reader.value(key) else { return (nil, true) }
        switch raw {
        case .number(let number): return (.number(number), true)
        case .string(let text):
            guard CalendarDate(text) != nil || DateTimeParsing.instant(text, defaultZone: TimeZone(identifier: "UTC")!) != nil else {
                log.error(reader.path / key, "\"\(key)\" must be a number, or a date as \"YYYY-MM-DD\" or an ISO 8601 date-time, not \"\(text)\".")
                return (nil, false)
            }
            return (.date(text), true)
        default:
            log.error(reader.path / key, "\"\(key)\" must be a number or a date, not \(raw.typeDescription).")
            return (nil, false)
        }
    }
}

extension ObjectReader {
    func accept(contentsOf keys: [String]) {
        for key in keys { accept(key) }
    }
}
