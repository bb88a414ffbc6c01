import Foundation
import JSON
import SurveyCore
@testable import SurveyServer
import Testing

/// The terminology read from files: the surveys folder's ValueSets and CodeSystems, and FHIR packages.
struct FHIRTerminologyFilesTests {
    static func json(_ text: String) -> JSONValue { (try? JSONParser.parse(text)) ?? .null }

    @Test("Packages are read from their package/ folders, through .index.json when there is one")
    func packages() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-packages-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let indexed = root.appendingPathComponent("example.ig#1.0.0/package")
        let plain = root.appendingPathComponent("other/package")
        for folder in [indexed, plain] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func write(_ value: JSONValue, _ url: URL) throws { try Data(JSONWriter.string(value).utf8).write(to: url) }
        try write(QuestionnaireTerminologyFixtures.yesNo, indexed.appendingPathComponent("ValueSet-yes-no.json"))
        try write(QuestionnaireTerminologyFixtures.severity, indexed.appendingPathComponent("CodeSystem-severity.json"))
        // Left out of the index, so not read.
        try write(QuestionnaireTerminologyFixtures.both, indexed.appendingPathComponent("ValueSet-both.json"))
        try write(Self.json("""
            {"index-version": 1, "files": [
              {"filename": "ValueSet-yes-no.json", "resourceType": "ValueSet", "url": "http://example.org/ValueSet/yes-no"},
              {"filename": "CodeSystem-severity.json", "resourceType": "CodeSystem", "url": "http://example.org/CodeSystem/severity"}]}
            """), indexed.appendingPathComponent(".index.json"))
        try write(QuestionnaireTerminologyFixtures.wholeSeverity, plain.appendingPathComponent("ValueSet-severity.json"))
        try write(Self.json(#"{"name": "other", "version": "0.1.0"}"#), plain.appendingPathComponent("package.json"))
        let (terminology, problems) = FHIRTerminology.load(surveysFolder: nil, packagesFolder: root.path)
        #expect(problems.isEmpty, "\(problems)")
        #expect(terminology.valueSet("http://example.org/ValueSet/yes-no|2") != nil)
        #expect(terminology.codeSystem("http://example.org/CodeSystem/severity") != nil)
        #expect(terminology.valueSet("http://example.org/ValueSet/severity") != nil)
        #expect(terminology.valueSet("http://example.org/ValueSet/both") == nil, "a file the index does not list is not read")
        let (_, missing) = FHIRTerminology.load(surveysFolder: nil, packagesFolder: root.appendingPathComponent("nope").path)
        #expect(missing == ["The FHIR packages folder \(root.appendingPathComponent("nope").path) cannot be read."])
    }
}

enum QuestionnaireTerminologyFixtures {
    static let yesNo = FHIRTerminologyFilesTests.json("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/yes-no", "version": "2", "status": "active",
      "compose": { "include": [ { "system": "http://example.org/CodeSystem/yn", "concept": [ { "code": "Y" } ] } ] } }
    """)
    static let severity = FHIRTerminologyFilesTests.json("""
    { "resourceType": "CodeSystem", "url": "http://example.org/CodeSystem/severity", "status": "active", "content": "complete",
      "concept": [ { "code": "mild" } ] }
    """)
    static let wholeSeverity = FHIRTerminologyFilesTests.json("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/severity", "status": "active",
      "compose": { "include": [ { "system": "http://example.org/CodeSystem/severity" } ] } }
    """)
    static let both = FHIRTerminologyFilesTests.json("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/both", "status": "active",
      "compose": { "include": [ { "valueSet": ["http://example.org/ValueSet/yes-no"] } ] } }
    """)
}
