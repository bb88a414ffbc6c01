import Foundation
import JSON

/// Reads one JSON object of a survey file into model values, reporting every fault to the
/// log with its path instead of stopping at the first, and naming keys it does not know.
final class ObjectReader {
    let object: JSONObject
    let path: JSONPath
    let log: DiagnosticLog
    private var known: [String] = []

    init(object: JSONObject, path: JSONPath, log: DiagnosticLog) {
        self.object = object
        self.path = path
        self.log = log
    }

    /// A reader for `value`, or nil (with an error) when it is not an object.
    convenience init?(_ value: JSONValue, at path: JSONPath, log: DiagnosticLog, what: String) {
        guard case .object(let object) = value else {
            log.error(path, "\(what) must be an object, not \(value.typeDescription).")
            return nil
        }
        self.init(object: object, path: path, log: log)
    }

    func has(_ key: String) -> Bool {
        object[key] != nil
    }

    /// Marks keys as known without reading them (read elsewhere, or ignored on purpose).
    func accept(_ keys: String...) {
        known.append(contentsOf: keys)
    }

    /// The raw value of a key, marking the key as known.
    func value(_ key: String, required: Bool = false) -> JSONValue? {
        known.append(key)
        guard let value = object[key] else {
            if required { log.error(path / key, "\"\(key)\" is required here.") }
            return nil
        }
        if value == .null {
            log.error(path / key, "\"\(key)\" is null; give it a value or leave the key out.")
            return nil
        }
        return value
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) {
        log.error(path / key, "\"\(key)\" must be \(expected), not \(value.typeDescription).")
    }

    func string(_ key: String, required: Bool = false, nonEmpty: Bool = false) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard case .string(let text) = value else {
            mismatch(key, "a string", value)
            return nil
        }
        if nonEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            log.error(path / key, "\"\(key)\" must not be empty.")
            return nil
        }
        return text
    }

    func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            mismatch(key, "true or false", value)
            return nil
        }
        return flag
    }

    func number(_ key: String, required: Bool = false) -> Double? {
        guard let value = value(key, required: required) else { return nil }
        guard case .number(let number) = value else {
            mismatch(key, "a number", value)
            return nil
        }
        return number
    }

    func integer(_ key: String, required: Bool = false) -> Int? {
        guard let number = number(key, required: required) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else {
            log.error(path / key, "\"\(key)\" must be a whole number, not \(JSONWriter.number(number)).")
            return nil
        }
        return Int(number)
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, required: Bool = false) -> E?
    where E.RawValue == String {
        guard let text = string(key, required: required) else { return nil }
        if let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue)
        var message = "\"\(key)\" must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), not \"\(text)\"."
        if let suggestion = Suggestion.closest(to: text, in: names) { message += " Did you mean \"\(suggestion)\"?" }
        log.error(path / key, message)
        return nil
    }

    func text(_ key: String, required: Bool = false) -> LocalizedText? {
        guard let value = value(key, required: required) else { return nil }
        let text = Self.localizedText(value, at: path / key, log: log, what: "\"\(key)\"")
        if let text { log.texts.append((path / key, text)) }
        return text
    }

    static func localizedText(_ value: JSONValue, at path: JSONPath, log: DiagnosticLog, what: String) -> LocalizedText? {
        switch value {
        case .string(let text):
            return LocalizedText(text)
        case .object(let object):
            guard !object.isEmpty else {
                log.error(path, "\(what) needs at least one language.")
                return nil
            }
            var translations: [(String, String)] = []
            var ok = true
            for (language, text) in object.entries {
                guard isLanguageTag(language) else {
                    log.error(path / language, "\"\(language)\" is not a BCP 47 language tag such as \"en\" or \"pt-BR\".")
                    ok = false
                    continue
                }
                guard case .string(let string) = text else {
                    log.error(path / language, "The \"\(language)\" text must be a string, not \(text.typeDescription).")
                    ok = false
                    continue
                }
                translations.append((language, string))
            }
            return ok ? LocalizedText(translations: translations) : nil
        default:
            log.error(path, "\(what) must be a string or an object of language to text, not \(value.typeDescription).")
            return nil
        }
    }

    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The elements of an array key with their paths, or nil (with an error) when it is not an array.
    func array(_ key: String, required: Bool = false, minimumCount: Int = 0) -> [(value: JSONValue, path: JSONPath)]? {
        guard let value = value(key, required: required) else { return nil }
        guard case .array(let elements) = value else {
            mismatch(key, "an array", value)
            return nil
        }
        if elements.count < minimumCount {
            log.error(path / key, "\"\(key)\" needs at least \(minimumCount) \(minimumCount == 1 ? "entry" : "entries").")
        }
        return elements.enumerated().map { ($0.element, path / key / $0.offset) }
    }

    func objectReader(_ key: String, required: Bool = false, what: String? = nil) -> ObjectReader? {
        guard let value = value(key, required: required) else { return nil }
        return ObjectReader(value, at: path / key, log: log, what: what ?? "\"\(key)\"")
    }

    /// Reports every key this object holds that no reader asked for.
    /// An object kept as it is, not read into the model (the `fhir` details).
    func opaqueObject(_ key: String) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else {
            mismatch(key, "an object", value)
            return nil
        }
        return object
    }

    func finish(_ what: String) {
        for key in object.keys where !known.contains(key) {
            var message = "\(what) has no key \"\(key)\"."
            if let suggestion = Suggestion.closest(to: key, in: Set(known)) {
                message += " Did you mean \"\(suggestion)\"?"
            }
            log.error(path / key, message)
        }
    }
}
