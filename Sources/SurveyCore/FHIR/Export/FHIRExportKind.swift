import Foundation
import JSON

/// How a question's answers are written in FHIR: the Questionnaire item type, and the
/// `value[x]` an answer takes, worked out from the answer format and the item's `fhir.type`.
///
/// `fhir.type` (the type of the Questionnaire item the question came from) wins when it fits
/// the answer format: an `integer` item imported as a numeric question stays `integer`, a
/// `url` item asked as text answers `valueUri`. A `fhir.type` that no longer fits the format
/// (the author changed the format) is not used.
struct FHIRExportKind {
    enum Value {
        case boolean
        /// A whole number; a number with a fraction is written as a decimal.
        case integer
        case decimal
        case quantity(FHIRExportUnit)
        case date
        case dateTime
        case time
        case string
        case uri
        case choice([FHIRExportChoice])
    }

    var value: Value
    /// The Questionnaire item `type`.
    var itemType: String
    /// More than one answer (a multiple-choice format).
    var repeats: Bool

    /// The kind of a question (a question step or a form question) from its answer format and `fhir`.
    init(question: JSONValue, path: JSONPath, text: FHIRExportText) {
        let format = question[fx: "answerFormat"] ?? .object([:])
        let fhir = question[fx: "fhir"]
        // Options are read from the format as the loader reads it, so a renamed option is the compiler's to find.
        let typed = QuestionnaireExport.Builder.typed(format)
        self = Self.fromFormat(format, typed: typed, path: path / "answerFormat", fhir: fhir, text: text)
        // A choice with an "other" box stays open-choice whatever the item was.
        if let wanted = fhir?[fx: "type"]?.fxText, wanted != itemType, !(wanted == "choice" && itemType == "open-choice"),
           Self.compatibleTypes(Self.formatKind(format)).contains(wanted) {
            apply(fhirType: wanted, typed: typed, fhir: fhir)
        }
    }

    private init(_ value: Value, _ itemType: String, repeats: Bool = false) {
        self.value = value
        self.itemType = itemType
        self.repeats = repeats
    }

    /// The kind of format a survey file's `answerFormat` names, if it names one.
    static func formatKind(_ format: JSONValue) -> AnswerFormat.Kind? {
        format[fx: "type"]?.fxString.flatMap(AnswerFormat.Kind.init(typeName:))
    }

    private static func fromFormat(_ format: JSONValue, typed: AnswerFormat?, path: JSONPath, fhir: JSONValue?,
                                   text: FHIRExportText) -> FHIRExportKind {
        switch formatKind(format) {
        case .boolean?:
            return .init(.boolean, "boolean")
        case .textChoice?, .valuePicker?, .imageChoice?, .textScale?:
            let choices = FHIRExportChoice.choices(of: format, at: path, text: text)
            let multiple = Self.allowsSeveral(typed)
            return .init(.choice(choices), choices.contains(where: \.isOther) ? "open-choice" : "choice", repeats: multiple)
        case .scale?, .age?, .ses?:
            return .init(.integer, "integer")
        case .continuousScale?:
            return .init(.decimal, "decimal")
        case .numeric?:
            if let unit = FHIRExportUnit(format: typed, fhir: fhir) { return .init(.quantity(unit), "quantity") }
            if case .numeric(let numeric)? = typed, numeric.effectiveStyle == .integer { return .init(.integer, "integer") }
            return .init(.decimal, "decimal")
        case .height?:
            return .init(.quantity(FHIRExportUnit(code: "cm", fhir: fhir)), "quantity")
        case .weight?:
            return .init(.quantity(FHIRExportUnit(code: "kg", fhir: fhir)), "quantity")
        case .timeInterval?:
            return .init(.quantity(FHIRExportUnit(code: "s", fhir: nil)), "quantity")
        case .timeOfDay?:
            return .init(.time, "time")
        case .date?:
            if case .date(let date)? = typed, date.effectiveStyle == .dateAndTime { return .init(.dateTime, "dateTime") }
            return .init(.date, "date")
        case .text?:
            if case .text(let text)? = typed, text.multipleLines == true { return .init(.string, "text") }
            return .init(.string, "string")
        case .email?, .location?, .multipleValuePicker?, nil:
            // One string; so too a format of no known type.
            return .init(.string, "string")
        }
    }

    /// Whether a choice format takes several answers: a text or image choice of multiple choice.
    private static func allowsSeveral(_ format: AnswerFormat?) -> Bool {
        if case .textChoice(let choices)? = format { return choices.style == .multipleChoice }
        if case .imageChoice(let images)? = format { return images.effectiveStyle == .multipleChoice }
        return false
    }

    /// The Questionnaire item types a format's answers can be written as.
    static func compatibleTypes(_ formatKind: AnswerFormat.Kind?) -> Set<String> {
        switch formatKind {
        case .boolean?: return ["boolean"]
        case .textChoice?, .valuePicker?, .imageChoice?, .textScale?: return ["choice", "open-choice"]
        case .numeric?, .height?, .weight?, .timeInterval?, .scale?: return ["integer", "decimal", "quantity"]
        case .continuousScale?, .age?, .ses?: return ["integer", "decimal"]
        case .date?: return ["date", "dateTime"]
        case .timeOfDay?: return ["time"]
        case .text?: return ["string", "text", "url"]
        case .email?, .location?, .multipleValuePicker?: return ["string", "text"]
        case nil: return []
        }
    }

    private mutating func apply(fhirType: String, typed: AnswerFormat?, fhir: JSONValue?) {
        itemType = fhirType
        switch fhirType {
        case "integer": value = .integer
        case "decimal": value = .decimal
        case "quantity":
            if case .quantity = value { break }
            value = .quantity(FHIRExportUnit(format: typed, fhir: fhir) ?? FHIRExportUnit(code: nil, fhir: fhir))
        case "date": value = .date
        case "dateTime": value = .dateTime
        case "time": value = .time
        case "url": value = .uri
        case "string", "text": value = .string
        default: break
        }
    }
}

extension FHIRExportKind {
    /// The FHIR values of an answer given in the shape a result records it (a boolean, a
    /// number, a string, or an array of choice values): `(type, value)` for `value<Type>`,
    /// `answer<Type>` or `initial.value<Type>`. Empty when the answer does not fit the kind.
    func values(for answer: JSONValue) -> [(type: String, value: JSONValue)] {
        switch value {
        case .choice(let choices):
            let list = answer.fxArray ?? [answer]
            return list.compactMap { Self.choiceValue($0, in: choices) }
        default:
            return scalarValue(answer).map { [$0] } ?? []
        }
    }

    private func scalarValue(_ answer: JSONValue) -> (type: String, value: JSONValue)? {
        switch value {
        case .boolean:
            return answer.fxBool.map { ("Boolean", .bool($0)) }
        case .integer:
            guard let number = answer.fxNumber else { return nil }
            return answer.fxInteger != nil ? ("Integer", .number(number)) : ("Decimal", .number(number))
        case .decimal:
            return answer.fxNumber.map { ("Decimal", .number($0)) }
        case .quantity(let unit):
            return answer.fxNumber.map { ("Quantity", unit.quantity($0)) }
        case .date:
            return answer.fxText.map { ("Date", .string(String($0.prefix(10)))) }
        case .dateTime:
            return answer.fxText.map { ("DateTime", .string($0)) }
        case .time:
            return answer.fxText.map { ("Time", .string(Self.fhirTime($0))) }
        case .string:
            return answer.fxCodeText.map { ("String", .string($0)) }
        case .uri:
            return answer.fxText.map { ("Uri", .string($0)) }
        case .choice:
            return nil
        }
    }

    /// A chosen value: its choice's FHIR value; a value no choice has (an "other" choice's
    /// typed text) or an "other" choice's own value is the text as a string.
    static func choiceValue(_ chosen: JSONValue, in choices: [FHIRExportChoice]) -> (type: String, value: JSONValue)? {
        if let choice = choices.first(where: { $0.value == chosen }) {
            if choice.isOther { return (choice.text ?? chosen.fxCodeText).map { ("String", .string($0)) } }
            return choice.fhirValue
        }
        if choices.isEmpty, let number = chosen.fxInteger { return ("Integer", FHIRJSON.integer(number)) }
        if choices.isEmpty, let code = chosen.fxText { return ("Coding", FHIRJSON.coding(system: nil, code: code, display: nil)) }
        return chosen.fxCodeText.map { ("String", .string($0)) }
    }

    /// FHIR `time` is `HH:mm:ss`; the survey records `HH:mm`.
    static func fhirTime(_ time: String) -> String {
        time.count == 5 ? time + ":00" : time
    }
}
