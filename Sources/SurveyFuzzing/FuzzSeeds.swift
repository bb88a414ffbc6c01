import Foundation
import JSON
import SurveyCore

/// What fuzzing starts from: the example surveys, the strings they use (identifiers, values,
/// type names), their questions, and posts recorded from walking them.
public struct FuzzSeeds: Sendable {
    public let surveys: [JSONValue]
    public let strings: [String]
    public let questions: [Step.Question]
    /// Example survey files and form bodies, as files for a fuzzer's corpus: (name, bytes, target).
    public let corpus: [(name: String, bytes: [UInt8], target: FuzzTarget)]

    /// Reads `Examples/*.json` and `Tests/Fixtures/*.answers.json` under `root`.
    public init(root: URL) throws {
        let examples = try Self.files(root.appendingPathComponent("Examples"), suffix: ".json")
        var surveys: [JSONValue] = []
        var strings: Set<String> = []
        var questions: [Step.Question] = []
        var corpus: [(String, [UInt8], FuzzTarget)] = []
        for file in examples {
            let data = try Data(contentsOf: file)
            let value = try JSONParser.parse(data)
            surveys.append(value)
            Self.collectStrings(value, into: &strings)
            corpus.append((file.lastPathComponent, Array(data), .loader))
            let task = try SurveyLoader.load(data).task
            questions += task.steps.flatMap(\.questions)
        }
        for file in try Self.files(root.appendingPathComponent("Tests/Fixtures"), suffix: ".answers.json") {
            guard case .object(let steps) = try JSONParser.parse(Data(contentsOf: file)) else { continue }
            for (step, fields) in steps.entries {
                let body = Self.urlEncoded(FormFields(json: fields)) + "&_action=next&_csrf=t1.AAAA&_visit=2"
                corpus.append(("\(file.lastPathComponent)-\(step)", Array(body.utf8), .form))
                corpus.append(("\(file.lastPathComponent)-\(step)", [0] + Array(body.utf8), .answers))
            }
        }
        self.surveys = surveys
        self.strings = strings.sorted() + StepKind.typeNames
        self.questions = questions
        self.corpus = corpus
    }

    static func files(_ folder: URL, suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func collectStrings(_ value: JSONValue, into strings: inout Set<String>) {
        switch value {
        case .string(let text) where text.count <= 40: strings.insert(text)
        case .array(let items): items.forEach { collectStrings($0, into: &strings) }
        case .object(let object):
            for (key, item) in object.entries {
                strings.insert(key)
                collectStrings(item, into: &strings)
            }
        default: break
        }
    }

    public static func urlEncoded(_ fields: FormFields) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.values.keys.sorted().flatMap { name in
            fields.all(name).map { value in
                "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }
        }.joined(separator: "&")
    }
}
