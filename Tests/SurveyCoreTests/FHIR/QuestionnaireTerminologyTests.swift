import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// ValueSets a Questionnaire names by canonical URL without containing them: found beside it
/// (the surveys folder) or in FHIR packages, with whole CodeSystems and ValueSets that include
/// others; what would need a terminology server is refused, naming it.
struct QuestionnaireTerminologyTests {
    static let yesNo = fhirJSON("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/yes-no", "version": "2", "status": "active",
      "compose": { "include": [ { "system": "http://example.org/CodeSystem/yn", "concept": [
        { "code": "Y", "display": "Yes" }, { "code": "N", "display": "No" } ] } ] } }
    """)
    static let severity = fhirJSON("""
    { "resourceType": "CodeSystem", "url": "http://example.org/CodeSystem/severity", "status": "active", "content": "complete",
      "concept": [ { "code": "mild", "display": "Mild" },
                   { "code": "severe", "display": "Severe", "concept": [ { "code": "critical", "display": "Critical" } ] } ] }
    """)
    static let wholeSeverity = fhirJSON("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/severity", "status": "active",
      "compose": { "include": [ { "system": "http://example.org/CodeSystem/severity" } ] } }
    """)
    static let both = fhirJSON("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/both", "status": "active",
      "compose": { "include": [ { "valueSet": ["http://example.org/ValueSet/yes-no", "http://example.org/ValueSet/severity"] } ] } }
    """)
    static let broken = fhirJSON("""
    { "resourceType": "ValueSet", "url": "http://example.org/ValueSet/broken", "status": "active",
      "compose": { "include": [ { "system": "http://loinc.org", "filter": [ { "property": "parent", "op": "=", "value": "LP1" } ] } ] } }
    """)

    static var terminology: FHIRTerminology {
        var terminology = FHIRTerminology()
        for (value, file) in [(yesNo, "yes-no.json"), (severity, "severity-cs.json"), (wholeSeverity, "severity.json"),
                              (both, "both.json"), (broken, "broken.json")] {
            terminology.add(value, file: "/surveys/" + file)
        }
        return terminology
    }

    static func outcome(_ valueSet: String) -> ImportOutcome {
        let (survey, diagnostics) = QuestionnaireImport.survey(
            from: fhirJSON(#"{"resourceType": "Questionnaire", "id": "t", "status": "active", "item": [{"linkId": "q", "type": "choice", "text": "Pick", "answerValueSet": "\#(valueSet)"}]}"#),
            fallbackIdentifier: "t", terminology: terminology)
        return ImportOutcome(survey: survey, diagnostics: diagnostics)
    }

    static func values(_ outcome: ImportOutcome) -> [JSONValue] {
        guard case .array(let choices)? = outcome.value("steps", 0, "answerFormat", "choices") else { return [] }
        return choices.compactMap { pick($0, "value") }
    }

    @Test("A ValueSet beside the Questionnaire is named by its url, with or without its version")
    func byCanonical() {
        for reference in ["http://example.org/ValueSet/yes-no", "http://example.org/ValueSet/yes-no|2"] {
            let outcome = Self.outcome(reference)
            expectNoErrors(outcome)
            #expect(Self.values(outcome) == [.string("Y"), .string("N")])
            #expect(outcome.value("steps", 0, "answerFormat", "choices", 0, "fhir", "system") == .string("http://example.org/CodeSystem/yn"))
        }
    }

    @Test("A whole CodeSystem that holds all its codes gives every concept, nested ones too; ValueSets may include others")
    func codeSystemsAndIncludes() {
        #expect(Self.values(Self.outcome("http://example.org/ValueSet/severity")) == [.string("mild"), .string("severe"), .string("critical")])
        let both = Self.outcome("http://example.org/ValueSet/both")
        expectNoErrors(both)
        #expect(Self.values(both) == ["Y", "N", "mild", "severe", "critical"].map(JSONValue.string))
    }

    @Test("What needs a terminology server is refused at the item's reference, naming the file and the place in it")
    func refusals() throws {
        let filtered = Self.outcome("http://example.org/ValueSet/broken")
        let error = try #require(filtered.errors.first)
        #expect(error.path.description == "$.item[0].answerValueSet")
        #expect(error.message.hasPrefix("In /surveys/broken.json at $.compose.include[0].filter: "), "\(error.message)")
        #expect(error.message.contains("by a filter"))
        let missing = Self.outcome("http://example.org/ValueSet/elsewhere")
        #expect(missing.finding(.error, at: "$.item[0].answerValueSet")?.message.contains("neither contained in the Questionnaire nor in the surveys folder or the FHIR packages") == true)
        var fragment = Self.terminology
        fragment.add(fhirJSON(#"{"resourceType": "CodeSystem", "url": "http://example.org/CodeSystem/part", "content": "fragment", "concept": [{"code": "a"}]}"#),
                     file: "/surveys/part.json")
        fragment.add(fhirJSON(#"{"resourceType": "ValueSet", "url": "http://example.org/ValueSet/part", "compose": {"include": [{"system": "http://example.org/CodeSystem/part"}]}}"#),
                     file: "/surveys/part-vs.json")
        let (_, found) = QuestionnaireImport.survey(
            from: fhirJSON(#"{"resourceType": "Questionnaire", "status": "active", "item": [{"linkId": "q", "type": "choice", "answerValueSet": "http://example.org/ValueSet/part"}]}"#),
            fallbackIdentifier: "t", terminology: fragment)
        #expect(found.first { $0.isError }?.message.contains("does not hold all of its codes") == true)
    }
}
