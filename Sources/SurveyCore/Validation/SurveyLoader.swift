import Foundation
import JSON

/// Loads survey files: parses, reads the model and checks it against format v1 and
/// ResearchKit's limits, collecting every error at once.
public enum SurveyLoader {
    /// Every error and warning for a file, in file order, with nothing thrown.
    ///
    /// - Parameter name: the file's name without `.json`: a FHIR Questionnaire with no `id` takes it as its identifier.
    /// - Parameter terminology: the ValueSets and CodeSystems a Questionnaire may name by canonical URL.
    public static func diagnose(_ data: Data, name: String = "questionnaire",
                                terminology: FHIRTerminology = .none) -> (task: SurveyTask?, diagnostics: [Diagnostic]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            return (nil, [Diagnostic(.error, .root, "The file is not valid JSON: \(error.description).")])
        }
        return diagnose(value, name: name, terminology: terminology)
    }

    /// A survey file, or a FHIR Questionnaire read as the survey file it maps to (docs/fhir.md).
    public static func diagnose(_ value: JSONValue, name: String = "questionnaire",
                                terminology: FHIRTerminology = .none) -> (task: SurveyTask?, diagnostics: [Diagnostic]) {
        guard QuestionnaireImport.isQuestionnaire(value) else { return diagnoseSurvey(value) }
        let (survey, found, origins) = QuestionnaireImport.read(value, fallbackIdentifier: name, terminology: terminology)
        guard let survey, let origins else { return (nil, found) }
        // The survey's checker speaks of the survey; its findings are placed on the Questionnaire.
        let (task, more) = diagnoseSurvey(survey)
        return (task, found + more.map(origins.placed))
    }

    static func diagnoseSurvey(_ value: JSONValue) -> (task: SurveyTask?, diagnostics: [Diagnostic]) {
        let log = DiagnosticLog()
        guard var task = SurveyDecoding(log: log).task(value) else {
            return (nil, log.diagnostics)
        }
        DefinitionChecker(task: task, log: log).check(resolvingInto: &task)
        return (log.hasErrors ? nil : task, log.diagnostics)
    }

    /// Every text of a file with its path, for checks made outside the core (the sanitizer's).
    public static func texts(in data: Data, terminology: FHIRTerminology = .none) -> [(path: JSONPath, text: LocalizedText)] {
        guard var value = try? JSONParser.parse(data) else { return [] }
        if QuestionnaireImport.isQuestionnaire(value) {
            guard let survey = QuestionnaireImport.survey(from: value, fallbackIdentifier: "questionnaire", terminology: terminology).survey
            else { return [] }
            value = survey
        }
        let log = DiagnosticLog()
        _ = SurveyDecoding(log: log).task(value)
        return log.texts
    }

    /// The survey in `data`, or a `SurveyLoadError` holding every error and warning.
    public static func load(_ data: Data, name: String = "questionnaire",
                            terminology: FHIRTerminology = .none) throws(SurveyLoadError) -> LoadedSurvey {
        let (task, diagnostics) = diagnose(data, name: name, terminology: terminology)
        guard let task else { throw SurveyLoadError(diagnostics: diagnostics) }
        return LoadedSurvey(task: task, warnings: diagnostics)
    }

    public static func load(contentsOf url: URL, terminology: FHIRTerminology = .none) throws(SurveyLoadError) -> LoadedSurvey {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SurveyLoadError(diagnostics: [Diagnostic(.error, .root, "The file \(url.path) cannot be read.")])
        }
        return try load(data, name: url.deletingPathExtension().lastPathComponent, terminology: terminology)
    }
}

extension SurveyTask: Codable {
    /// Reads format v1 through the checker; a file with errors fails with every message.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        let (task, diagnostics) = SurveyLoader.diagnoseSurvey(value)
        guard let task else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: diagnostics.filter(\.isError).map(\.description).joined(separator: "\n")))
        }
        self = task
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object = JSONObject()
            for key in container.allKeys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if number == number.rounded(), abs(number) < 1e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in object.entries { try container.encode(value, forKey: AnyKey(key)) }
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
