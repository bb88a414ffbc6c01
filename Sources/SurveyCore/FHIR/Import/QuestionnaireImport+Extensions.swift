import Foundation
import JSON

extension QuestionnaireImport {
    /// The extensions on one element, taken by URL while the element is read; those never
    /// taken are reported afterwards as ignored.
    final class Extensions {
        struct Entry {
            let url: String
            let object: JSONObject
            let path: JSONPath

            /// The extension's `value[x]`: the type named after "value" ("Integer") and the value.
            var value: (type: String, value: JSONValue)? {
                for (key, value) in object.entries where key.hasPrefix("value") && key.count > 5 {
                    return (String(key.dropFirst(5)), value)
                }
                return nil
            }
        }

        let entries: [Entry]
        /// Elements of the array that are not extensions with a url.
        let malformed: [JSONPath]
        private var taken = Set<Int>()

        init(_ value: JSONValue?, at path: JSONPath) {
            var entries: [Entry] = []
            var malformed: [JSONPath] = []
            if case .array(let elements)? = value {
                for (index, element) in elements.enumerated() {
                    if case .object(let object) = element, case .string(let url)? = object["url"] {
                        entries.append(Entry(url: url, object: object, path: path / index))
                    } else {
                        malformed.append(path / index)
                    }
                }
            } else if value != nil {
                malformed.append(path)
            }
            self.entries = entries
            self.malformed = malformed
        }

        /// Every entry with one of these URLs, in order, now counted as used.
        func take(_ urls: [String]) -> [Entry] {
            var found: [Entry] = []
            for (index, entry) in entries.enumerated() where urls.contains(entry.url) {
                taken.insert(index)
                found.append(entry)
            }
            return found
        }

        /// The first entry with this URL, now counted as used (with any others of the same URL).
        func take(_ url: String) -> Entry? {
            take([url]).first
        }

        func contains(_ url: String) -> Bool {
            entries.contains { $0.url == url }
        }

        var untaken: [Entry] {
            entries.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
        }

        /// The entries kept verbatim in `fhir.extension` (see `FHIRExtensionURL.kept`).
        var kept: [JSONValue] {
            entries.filter { FHIRExtensionURL.kept.contains($0.url) }.map { .object($0.object) }
        }
    }
}

extension QuestionnaireImport.Reader {
    typealias Extensions = QuestionnaireImport.Extensions

    /// Warns about every extension of the element that nothing used; `owner` names it ("The item 'q1'").
    func reportIgnored(_ extensions: Extensions, owner: String) {
        for path in extensions.malformed {
            warning(path, "\(owner) has an extension without a url, which is ignored.")
        }
        for entry in extensions.untaken {
            warning(entry.path, "\(owner) has an ignored extension \(entry.url): this presenter does not use it.")
        }
    }

    /// An error for a `modifierExtension`: it changes the meaning of the element, and no modifier is understood here.
    func rejectModifiers(_ object: JSONObject, at path: JSONPath, owner: String) {
        guard let value = object["modifierExtension"] else { return }
        var urls: [String] = []
        if case .array(let elements) = value {
            for case .object(let element) in elements {
                if case .string(let url)? = element["url"] { urls.append(url) }
            }
        }
        let named = urls.isEmpty ? "" : " (\(urls.joined(separator: ", ")))"
        error(path / "modifierExtension", "\(owner) has a modifierExtension\(named), which changes its meaning in a way this presenter cannot honour.")
    }

    /// The extension's value when its type is one of `types`; otherwise a warning and nil.
    func value(of entry: Extensions.Entry, _ types: Set<String>, owner: String) -> JSONValue? {
        if let (type, value) = entry.value, types.contains(type) { return value }
        let given = entry.value.map { "value\($0.type)" } ?? "no value"
        let wanted = types.sorted().map { "value\($0)" }.joined(separator: " or ")
        warning(entry.path, "\(owner) has the extension \(entry.url) with \(given) where \(wanted) is expected; it is ignored.")
        return nil
    }

    /// A number from valueDecimal, valueInteger or a valueQuantity's value.
    func number(of entry: Extensions.Entry, owner: String) -> Double? {
        switch value(of: entry, ["Decimal", "Integer", "Quantity"], owner: owner) {
        case .number(let number)?: return number
        case .object(let quantity)?:
            if case .number(let number)? = quantity["value"] { return number }
            warning(entry.path, "\(owner) has the extension \(entry.url) with a quantity that has no value; it is ignored.")
            return nil
        default: return nil
        }
    }

    func integer(of entry: Extensions.Entry, owner: String) -> Int? {
        guard case .number(let number)? = value(of: entry, ["Integer"], owner: owner), number == number.rounded(), abs(number) < 1e9 else { return nil }
        return Int(number)
    }

    func string(of entry: Extensions.Entry, owner: String) -> String? {
        guard case .string(let text)? = value(of: entry, ["String"], owner: owner) else { return nil }
        return text
    }

    /// The code of a `valueCodeableConcept` or `valueCoding` (the first coding's code).
    func code(of entry: Extensions.Entry, owner: String) -> String? {
        switch value(of: entry, ["CodeableConcept", "Coding"], owner: owner) {
        case .object(let object)?:
            if case .string(let code)? = object["code"] { return code }
            if case .array(let codings)? = object["coding"] {
                for case .object(let coding) in codings {
                    if case .string(let code)? = coding["code"] { return code }
                }
            }
            warning(entry.path, "\(owner) has the extension \(entry.url) with no code; it is ignored.")
            return nil
        default:
            return nil
        }
    }

    /// A FHIRPath `valueExpression`: its `expression`, or an error when it is written in another language.
    func expression(of entry: Extensions.Entry, owner: String) -> (name: String?, expression: String)? {
        guard case .object(let object)? = value(of: entry, ["Expression"], owner: owner) else { return nil }
        let name: String? = if case .string(let name)? = object["name"] { name } else { nil }
        let language: String? = if case .string(let language)? = object["language"] { language } else { nil }
        guard language == FHIRExtensionURL.fhirPathLanguage else {
            let said = language.map { "written in \($0)" } ?? "given without a language"
            error(entry.path / "valueExpression" / "language",
                  "\(owner) has an expression \(said); only FHIRPath (\(FHIRExtensionURL.fhirPathLanguage)) can be evaluated here.")
            return nil
        }
        guard case .string(let expression)? = object["expression"], !expression.isEmpty else {
            error(entry.path / "valueExpression" / "expression", "\(owner) has an expression extension with no expression.")
            return nil
        }
        return (name, expression)
    }

    /// The `variable` extensions of an element as survey `variables` entries, `{"name", "expression"}`.
    func variables(_ extensions: Extensions, owner: String) -> [JSONValue] {
        extensions.take([FHIRExtensionURL.variable]).compactMap { entry -> JSONValue? in
            guard let (name, expression) = expression(of: entry, owner: owner) else { return nil }
            guard let name, !name.isEmpty else {
                error(entry.path / "valueExpression" / "name", "\(owner) has a variable with no name, so no expression can use it.")
                return nil
            }
            return .object(["name": .string(name), "expression": .string(expression)])
        }
    }
}
