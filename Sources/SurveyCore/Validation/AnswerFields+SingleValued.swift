import Foundation
import JSON

/// Two different values for a field that takes one: `fever=true&fever=false`. A browser sends
/// that only when a page is tampered with or two pages were merged; taking either value would
/// store an answer the participant may not have meant, so the page is shown again.
extension AnswerFields {
    /// The fields of question `name` that may carry several values: the boxes of a
    /// multiple-choice format. Every other field of a question is single-valued.
    static func takesSeveral(_ field: String, name: String, format: AnswerFormat) -> Bool {
        field == name && format.rules.takesSeveralValues
    }

    /// Whether `field` belongs to question `name`: the name itself or one of its parts
    /// (`dob.day`, `bed.hours`, `pet.other`, `meal.0`, `home.latitude`).
    static func belongs(_ field: String, to name: String) -> Bool {
        if field == name { return true }
        let (fieldBytes, nameBytes) = (field.utf8, name.utf8)
        guard fieldBytes.count > nameBytes.count + 1, fieldBytes.starts(with: nameBytes),
              fieldBytes[fieldBytes.index(fieldBytes.startIndex, offsetBy: nameBytes.count)] == UInt8(ascii: ".") else { return false }
        let part = fieldBytes.dropFirst(nameBytes.count + 1).prefix { $0 != UInt8(ascii: ".") }
        return reservedParts.contains(String(decoding: part, as: UTF8.self)) || (!part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) })
    }

    /// The words after a question's name in the names of its other fields (`dob.day`,
    /// `bed.hours`): no form item may be named like one of them after another item's name.
    static let reservedParts: Set<String> = ["other", "hours", "minutes", "feet", "inches", "pounds", "ounces", "day", "month",
                                             "year", "time", "dontKnow", "latitude", "longitude"]

    /// The first field of question `name` (in name order) sent with two different values
    /// where the format takes one; nil when there is none.
    static func conflicting(in fields: FormFields, name: String, format: AnswerFormat) -> String? {
        fields.values.lazy.filter { field, values in
            guard values.count > 1, belongs(field, to: name), !takesSeveral(field, name: name, format: format) else { return false }
            return Set(values.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }).count > 1
        }.map(\.key).min()
    }
}
