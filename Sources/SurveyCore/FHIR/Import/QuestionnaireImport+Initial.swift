import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// One given initial value: its FHIR type ("Coding", "Integer"), the value, and where it is.
    typealias GivenValue = (type: String, value: JSONValue, path: JSONPath)

    /// The initial answer in the shape a result records it: from R4 `initial`, STU3
    /// `initialBoolean`… keys and, for choices, the options marked `initialSelected`.
    func initialValue(for item: Item, format: JSONObject?) -> JSONValue? {
        let owner = "The item '\(item.linkId)'"
        var given: [GivenValue] = []
        if let initial = item.object["initial"] {
            guard case .array(let elements) = initial else {
                warning(item.path / "initial", "\(owner) has an \"initial\" that is not a list of values; it is left out.")
                return nil
            }
            for (index, element) in elements.enumerated() {
                guard case .object(let object) = element, let entry = object.entries.first(where: { $0.key.hasPrefix("value") && $0.key.count > 5 }) else {
                    warning(item.path / "initial" / index, "\(owner) has an initial entry with no value; it is left out.")
                    continue
                }
                given.append((String(entry.key.dropFirst(5)), entry.value, item.path / "initial" / index / entry.key))
            }
        }
        for (key, value) in item.object.entries where Self.isSTU3Initial(key) {
            given.append((String(key.dropFirst(7)), value, item.path / key))
        }
        if item.isChoice {
            // R4's que-11 forbids `initial` beside options marked initialSelected; no logic hangs on
            // which wins, so the options' own marks are kept and `initial` is set aside.
            if !given.isEmpty, item.choices.contains(where: \.initiallySelected) {
                warning(given[0].path, "\(owner) marks options initialSelected and also gives \"initial\", which FHIR R4 does not "
                    + "allow beside answerOption (que-11); the options marked initialSelected are used and \"initial\" is left out.")
                given = []
            }
            return choiceInitial(given, for: item, multiple: format?["style"] == .string("multipleChoice"))
        }
        let answers = given.compactMap { initialAnswer($0, for: item) }
        if answers.count > 1 {
            warning(given[1].path, "\(owner) has \(answers.count) initial values but takes one answer; only the first is used.")
        }
        return answers.first
    }

    /// A single initial value converted for the item's type, or a warning when it does not fit.
    private func initialAnswer(_ given: GivenValue, for item: Item) -> JSONValue? {
        switch (item.type, given.type, given.value) {
        case ("boolean", "Boolean", .bool),
             ("decimal", "Decimal", .number), ("decimal", "Integer", .number), ("integer", "Integer", .number),
             ("date", "Date", .string), ("dateTime", "DateTime", .string), ("dateTime", "Date", .string),
             ("string", "String", .string), ("text", "String", .string),
             ("url", "Uri", .string), ("url", "Url", .string), ("url", "String", .string):
            return given.value
        case ("time", "Time", .string(let time)):
            return .string(String(time.prefix(5)))
        case ("quantity", "Quantity", .object(let quantity)):
            if case .number? = quantity["value"] { return quantity["value"] }
        default:
            break
        }
        warning(given.path, "The item '\(item.linkId)' has an initial value\(given.type) that does not fit a \(item.type) item; it is left out.")
        return nil
    }

    /// The initially chosen values of a choice item, matched to its options.
    private func choiceInitial(_ given: [GivenValue], for item: Item, multiple: Bool) -> JSONValue? {
        let owner = "The item '\(item.linkId)'"
        var values = item.choices.filter(\.initiallySelected).map(\.value)
        for entry in given {
            var match: Choice?
            switch (entry.type, entry.value) {
            case ("Coding", .object(let coding)):
                match = item.choices.first { $0.matches(coding) }
            case ("String", .string), ("Integer", .number), ("Date", .string):
                match = item.choices.first { $0.value == entry.value }
            default:
                break
            }
            if let match {
                if !values.contains(match.value) { values.append(match.value) }
            } else if item.type == "open-choice", entry.type == "String", case .string = entry.value {
                // Typed text is how an "other" answer is recorded.
                values.append(entry.value)
            } else {
                warning(entry.path, "\(owner) has an initial value that matches none of its options; it is left out.")
            }
        }
        guard !values.isEmpty else { return nil }
        if !multiple, values.count > 1 {
            warning(item.path, "\(owner) takes one answer but has \(values.count) initial ones; only the first is used.")
            values = [values[0]]
        }
        return .array(values)
    }
}
