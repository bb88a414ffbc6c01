import Foundation
import JSON

// Reading the keys format v1 gains for FHIR questionnaires (docs/fhir.md): variables, a
// question's behaviour, notes and the predicates `answered`, `compare` and `expression`.

extension SurveyDecoding {
    /// `variables`: a list of `{name, expression}`.
    func variables(_ reader: ObjectReader) -> [NamedExpression] {
        guard let elements = reader.array("variables") else { return [] }
        return elements.compactMap { element -> NamedExpression? in
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A variable") else { return nil }
            let name = entry.string("name", required: true, nonEmpty: true)
            let expression = entry.string("expression", required: true, nonEmpty: true)
            entry.finish("A variable")
            if let name, !Self.isVariableName(name) {
                log.error(element.path / "name", "A variable's name is ASCII letters, digits and underscores, not starting with a digit; \"\(name)\" is not.")
                return nil
            }
            guard let name, let expression else { return nil }
            return NamedExpression(name: name, expression: expression)
        }
    }

    /// What FHIRPath reads after `%`: ASCII letters, digits and underscores, not starting with a digit.
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// A question's `readOnly`, `hidden`, `initial`, `initialExpression` and `calculatedExpression`.
    func behaviour(_ reader: ObjectReader) -> QuestionBehaviour {
        QuestionBehaviour(
            readOnly: reader.bool("readOnly"), hidden: reader.bool("hidden"), initial: reader.value("initial"),
            initialExpression: reader.string("initialExpression", nonEmpty: true),
            calculatedExpression: reader.string("calculatedExpression", nonEmpty: true), identifying: reader.bool("identifying"))
    }

    /// `{ "note": RichText, "visibleIf": Predicate, "fhir": {…} }`.
    func note(_ reader: ObjectReader, at path: JSONPath) -> FormItem? {
        let text = reader.text("note", required: true)
        let visibleIf = reader.value("visibleIf").flatMap { predicate($0, at: path / "visibleIf") }
        let fhir = reader.opaqueObject("fhir")
        reader.finish("A note")
        return text.map { .note(FormNote(note: $0, visibleIf: visibleIf, fhir: fhir)) }
    }

    /// `{"expression": "…"}` on its own.
    func expressionPredicate(_ reader: ObjectReader, at path: JSONPath) -> Predicate? {
        let source = reader.string("expression", required: true, nonEmpty: true)
        reader.finish("An expression predicate")
        return source.map(Predicate.expression)
    }

    /// `answered` and `compare` with its `value`, once the selector is read.
    func fhirTest(_ kind: String, _ reader: ObjectReader, selector: ResultSelector?, at path: JSONPath) -> Predicate? {
        if kind == "answered" {
            return reader.bool("answered").flatMap { flag in selector.map { .answered($0, flag) } }
        }
        guard let name = reader.string("compare", required: true) else { return nil }
        guard let operation = ComparisonOperator(rawValue: name) else {
            log.error(path / "compare", "\"compare\" is one of \(ComparisonOperator.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), not \"\(name)\".")
            return nil
        }
        guard let raw = reader.value("value", required: true) else { return nil }
        let expected: ExpectedValue
        switch raw {
        case .bool(let flag): expected = .bool(flag)
        case .number(let number): expected = .number(number)
        case .string(let text): expected = .string(text)
        default:
            log.error(path / "value", "\"value\" must be true, false, a number or a string, not \(raw.typeDescription).")
            return nil
        }
        return selector.map { .compare($0, operation, expected) }
    }
}
