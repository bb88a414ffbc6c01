import Foundation
import JSON

/// SDC observation extraction: the Observations a QuestionnaireResponse gives an EHR, one per
/// answer of each item marked for extraction (docs/fhir.md).
///
/// An item is extracted when the nearest `sdc-questionnaire-observationExtract` above it, on
/// the item itself, its groups, or the survey, is true, and the item has a `code` (its
/// `fhir.code`). The Observation's code is that code; its value is the answer, typed as an
/// Observation may hold it (a decimal, or an integer with a unit, becomes a Quantity; a date
/// a dateTime; a coding a CodeableConcept); it is `derivedFrom` the response and carries the
/// response's subject and encounter.
public enum ObservationExtract {
    /// The Observations of a response made by `QuestionnaireResponseExport` from this survey.
    /// `responseReference` is how the Observations name the response (in a transaction, its fullUrl).
    public static func observations(survey: JSONValue, response: JSONValue, responseReference: String) -> [JSONValue] {
        let sources = Source.index(FHIRExportSurvey(survey))
        let status = response[fx: "status"]?.fxString == "completed" ? "final" : "preliminary"
        var observations: [JSONValue] = []
        func walk(_ items: [JSONValue]) {
            for item in items {
                walk(item[fx: "item"]?.fxArray ?? [])
                guard let linkId = item[fx: "linkId"]?.fxString, let source = sources[linkId], source.isExtracted,
                      let code = source.code else { continue }
                for (index, answer) in (item[fx: "answer"]?.fxArray ?? []).enumerated() {
                    guard let value = observationValue(answer, unit: source.unit) else { continue }
                    let id = derivedUUID(response[fx: "id"]?.fxText ?? "", linkId, index)
                    observations.append(FHIRJSON.object([
                        "resourceType": .string("Observation"),
                        "id": .string(id),
                        "identifier": .array([.object(["system": .string(FHIRExportURL.uri), "value": .string("urn:uuid:" + id)])]),
                        "status": .string(status),
                        "category": .array([.object(["coding": .array([FHIRJSON.coding(system: surveyCategorySystem, code: "survey", display: "Survey")])])]),
                        "code": .object(["coding": .array(code)]),
                        "subject": response[fx: "subject"],
                        "encounter": response[fx: "encounter"],
                        "effectiveDateTime": response[fx: "authored"],
                        "issued": response[fx: "authored"],
                        "derivedFrom": .array([.object(["reference": .string(responseReference)])]),
                        value.key: value.value,
                    ]))
                }
            }
        }
        walk(response[fx: "item"]?.fxArray ?? [])
        return observations
    }

    static let surveyCategorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"

    /// An answer's `value[x]` as an Observation's: Observation has no decimal, date or uri value.
    static func observationValue(_ answer: JSONValue, unit: FHIRExportUnit?) -> (key: String, value: JSONValue)? {
        guard case .object(let object) = answer, let (key, value) = object.entries.first(where: { $0.key.hasPrefix("value") }) else { return nil }
        switch key {
        case "valueBoolean", "valueString", "valueTime", "valueDateTime", "valueQuantity", "valueCodeableConcept":
            return (key, value)
        case "valueInteger":
            guard let unit, let number = value.fxNumber else { return (key, value) }
            return ("valueQuantity", unit.quantity(number))
        case "valueDecimal":
            guard let number = value.fxNumber else { return nil }
            return ("valueQuantity", unit?.quantity(number) ?? .object(["value": .number(number)]))
        case "valueDate":
            return ("valueDateTime", value)
        case "valueUri":
            return ("valueString", value)
        case "valueCoding":
            return ("valueCodeableConcept", FHIRJSON.object(["coding": .array([value]), "text": value[fx: "display"]]))
        default:
            return nil
        }
    }

    /// A UUID for the Observation of one answer, the same each time the response is exported,
    /// so that an EHR can tell a resent Observation from a new one.
    static func derivedUUID(_ responseID: String, _ linkId: String, _ index: Int) -> String {
        var bytes = [UInt8]()
        for seed: UInt64 in [0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4] {
            var hash = seed
            for byte in "\(responseID)\u{0}\(linkId)\u{0}\(index)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            hash ^= hash >> 29
            hash = hash &* 0xbf58_476d_1ce4_e5b9
            hash ^= hash >> 32
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: a custom, name-based UUID
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// What the survey says of one response item: its code, its unit, and whether it is extracted.
    struct Source {
        var code: [JSONValue]?
        var unit: FHIRExportUnit?
        var isExtracted: Bool

        /// The survey's questions by the linkId the response gives them.
        static func index(_ survey: FHIRExportSurvey) -> [String: Source] {
            var sources: [String: Source] = [:]
            let surveyFlag = flag(survey.fhir)
            for step in survey.steps {
                let stepFlag = flag(step[fx: "fhir"]) ?? surveyFlag
                switch step[fx: "type"]?.fxString {
                case "question":
                    sources[FHIRExportSurvey.stepLinkId(step)] = source(step, inherited: stepFlag)
                case "form":
                    let items = step[fx: "items"]?.fxArray ?? []
                    let identifier = step[fx: "identifier"]?.fxString ?? ""
                    func walk(_ group: FHIRFormGroup, inherited: Bool?) {
                        let groupFlag = group.section.flatMap { flag(items[$0][fx: "fhir"]) } ?? inherited
                        for entry in group.entries {
                            switch entry {
                            case .group(let nested): walk(nested, inherited: groupFlag)
                            case .question(let index):
                                sources[FHIRExportSurvey.questionLinkId(items[index], stepIdentifier: identifier)] = source(items[index], inherited: groupFlag)
                            case .note: break
                            }
                        }
                    }
                    walk(FHIRFormGroup.layout(of: step), inherited: stepFlag)
                default:
                    break
                }
            }
            return sources
        }

        private static func source(_ question: JSONValue, inherited: Bool?) -> Source {
            let fhir = question[fx: "fhir"]
            let format = question[fx: "answerFormat"].flatMap(QuestionnaireExport.Builder.typed)
            return Source(code: fhir?[fx: "code"]?.fxArray.flatMap { $0.isEmpty ? nil : $0 },
                          unit: FHIRExportUnit(format: format, fhir: fhir),
                          isExtracted: flag(fhir) ?? inherited ?? false)
        }

        /// The observationExtract flag kept in a `fhir` object's extensions; nil when it has none.
        static func flag(_ fhir: JSONValue?) -> Bool? {
            (fhir?[fx: "extension"]?.fxArray ?? []).first { $0[fx: "url"]?.fxString == FHIRExtensionURL.observationExtract }?[fx: "valueBoolean"]?.fxBool
        }
    }
}
