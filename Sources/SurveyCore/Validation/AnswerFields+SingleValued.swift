import Foundation

/// Two different values for a field that takes one: `fever=true&fever=false`. A browser sends
/// that only when a page is tampered with or two pages were merged; taking either value would
/// store an answer the participant may not have meant, so the page is shown again.
extension AnswerFields {
    /// The fields of question `name` that may carry several values: the boxes of a
    /// multiple-choice format. Every other field of a question is single-valued.
    static func takesSeveral(_ field: String, name: String, format: AnswerFormat) -> Bool {
        guard field == name else { return false }
        switch format {
        case .textChoice(let choice): return choice.style == .multipleChoice
        case .imageChoice(let image): return image.effectiveStyle == .multipleChoice
        default: return false
        }
    }

    /// Whether `field` belongs to question `name`: the name itself or one of its parts
    /// (`dob.day`, `bed.hours`, `pet.other`, `meal.0`, `home.latitude`).
    static func belongs(_ field: String, to name: String) -> Bool {
        guard field.hasPrefix(name) else { return false }
        if field.count == name.count { return true }
        let rest = field.dropFirst(name.count)
        guard rest.first == "." else { return false }
        let part = rest.dropFirst()
        let first = part.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        return reservedParts.contains(first) || (!first.isEmpty && first.allSatisfy(\.isASCIIDigit))
    }

    static let reservedParts: Set<String> = ["other", "hours", "minutes", "feet", "inches", "pounds", "ounces", "day", "month",
                                             "year", "time", "dontKnow", "latitude", "longitude"]

    /// The first field of question `name` (in name order) sent with two different values
    /// where the format takes one; nil when there is none.
    static func conflicting(in fields: FormFields, name: String, format: AnswerFormat) -> String? {
        fields.values.keys.sorted().first { field in
            guard belongs(field, to: name), !takesSeveral(field, name: name, format: format),
                  let values = fields.values[field], values.count > 1 else { return false }
            return Set(values.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }).count > 1
        }
    }
}
