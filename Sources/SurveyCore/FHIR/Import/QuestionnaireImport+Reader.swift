import Foundation
import JSON

extension QuestionnaireImport {
    /// One reading of one Questionnaire: the findings so far, the identifiers given out and
    /// every item by linkId, so that conditions can name items anywhere in the tree.
    final class Reader {
        private(set) var diagnostics: [Diagnostic] = []
        /// The ValueSets and CodeSystems beside the Questionnaire, for references by canonical URL.
        let terminology: FHIRTerminology

        init(terminology: FHIRTerminology = .none) {
            self.terminology = terminology
        }
        /// Step and item identifiers given so far; they are unique across the whole survey.
        private var identifiers: Set<String> = []
        /// Every item read, by linkId (the first, when a linkId repeats).
        var items: [String: Item] = [:]
        /// The contained ValueSets by id, for `answerValueSet` references such as "#yes-no".
        var valueSets: [String: (object: JSONObject, path: JSONPath)] = [:]
        /// The contained ValueSets by canonical URL (their `url`, and `url|version` when they
        /// have a version), for references that name one that way.
        var valueSetsByURL: [String: (object: JSONObject, path: JSONPath)] = [:]
        /// The language the Questionnaire is written in: its `language`, else English.
        var baseLanguage = "en"
        /// The other languages its translations give, in the order they first appear.
        var languages: [String] = []
        /// How many items have been read, giving each its place in document order.
        var itemCount = 0

        /// How many errors have been found so far.
        private(set) var errorCount = 0

        func error(_ path: JSONPath, _ message: String) {
            diagnostics.append(Diagnostic(.error, path, message))
            errorCount += 1
        }

        func warning(_ path: JSONPath, _ message: String) {
            diagnostics.append(Diagnostic(.warning, path, message))
        }

        /// Says the findings made since `count` (in another file) at `path` of the
        /// Questionnaire, naming the file and the place in it.
        func relocate(since count: Int, to path: JSONPath, file: String) {
            guard count < diagnostics.count else { return }
            for index in count..<diagnostics.count {
                let found = diagnostics[index]
                diagnostics[index] = Diagnostic(found.severity, path, "In \(file) at \(found.path): \(found.message)")
            }
        }

        /// A new identifier made from a linkId: unique in the survey, `-2`, `-3` added when taken.
        func uniqueIdentifier(for linkId: String) -> String {
            let base = Reader.sanitized(linkId) ?? "item"
            var candidate = base
            var counter = 2
            while identifiers.contains(candidate) {
                candidate = "\(base)-\(counter)"
                counter += 1
            }
            identifiers.insert(candidate)
            return candidate
        }

        /// The text with every character outside `[A-Za-z0-9_-]` made a `-`, a dot made a `_` (a
        /// dot in a form field's name separates a control's parts, so `1` and `1.1` would clash),
        /// and the leading characters that are not letters or digits cut off; nil when nothing is left.
        /// A survey's identifier names no field, so `keepingDots` keeps its dots.
        static func sanitized(_ text: String, keepingDots: Bool = false) -> String? {
            func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            }
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                scalars.append(isAlphanumeric(scalar) || scalar == "_" || scalar == "-" ? scalar : scalar == "." ? (keepingDots ? "." : "_") : "-")
            }
            let result = String(String.UnicodeScalarView(scalars.drop { !isAlphanumeric($0) }))
            return result.isEmpty ? nil : result
        }

        /// An object written in place, leaving out the nil values; keys keep the order written.
        static func fields(_ pairs: KeyValuePairs<String, JSONValue?>) -> JSONObject {
            guard case .object(let object) = JSONValue.object(pairs) else { return JSONObject() }
            return object
        }

        /// Plain FHIR text made safe as the survey format's RichText, which is read as HTML.
        static func richText(_ plain: String) -> String {
            plain.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
    }
}
