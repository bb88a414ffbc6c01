import Foundation
import JSON

/// The unit of a quantity answer: a UCUM code when there is one, and the text a person reads.
///
/// The unit comes from the item's kept questionnaire-unit (or, for a quantity item,
/// questionnaire-unitOption) extension when it has one (the coding the Questionnaire gave),
/// else from the format: `cm` for height, `kg` for weight,
/// `s` for a time interval, a numeric format's `unit` (shown as its `displayUnit`). A unit
/// that is not a UCUM code the exports know ("steps") is carried as text only, with no
/// system and code.
struct FHIRExportUnit {
    var system: String?
    var code: String?
    var display: String?

    /// UCUM codes written as a survey author would write them.
    static let knownUCUM: Set<String> = [
        "cm", "m", "mm", "km", "[in_i]", "[ft_i]", "kg", "g", "mg", "ug", "[lb_av]", "kg/m2",
        "s", "min", "h", "d", "wk", "mo", "a", "L", "mL", "dL", "%", "Cel", "[degF]",
        "mm[Hg]", "/min", "mmol/L", "mg/dL", "g/dL", "kcal", "cal",
    ]

    /// True when the text is a UCUM code the exports know, or a UCUM annotation (`{steps}`).
    static func isUCUM(_ unit: String) -> Bool {
        knownUCUM.contains(unit) || (unit.hasPrefix("{") && unit.hasSuffix("}") && unit.count > 2)
    }

    /// A fixed UCUM unit (height, weight, time interval), unless the item keeps its own coding.
    init(code: String?, fhir: JSONValue?) {
        if let kept = Self.keptCoding(fhir) {
            self = kept
        } else {
            system = code == nil ? nil : FHIRExportURL.ucum
            self.code = code
            display = nil
        }
    }

    /// A numeric format's unit, or the kept coding; nil when it has neither.
    init?(format: AnswerFormat?, fhir: JSONValue?) {
        if let kept = Self.keptCoding(fhir) {
            self = kept
            return
        }
        guard case .numeric(let numeric)? = format,
              let unit = numeric.unit, !unit.isEmpty else { return nil }
        let shown = numeric.displayUnit.flatMap { $0.isEmpty ? nil : $0 }
        if Self.isUCUM(unit) {
            system = FHIRExportURL.ucum
            code = unit
            display = shown
        } else {
            system = nil
            code = nil
            display = shown ?? unit
        }
    }

    /// The coding of a questionnaire-unit (else the first questionnaire-unitOption) extension kept in `fhir.extension`.
    static func keptCoding(_ fhir: JSONValue?) -> FHIRExportUnit? {
        let extensions = fhir?[fx: "extension"]?.fxArray ?? []
        guard let unit = extensions.first(where: { $0[fx: "url"]?.fxString == FHIRExtensionURL.unit })
                ?? extensions.first(where: { $0[fx: "url"]?.fxString == FHIRExtensionURL.unitOption }),
              let coding = unit[fx: "valueCoding"] else { return nil }
        let kept = FHIRExportUnit(system: coding[fx: "system"]?.fxText, code: coding[fx: "code"]?.fxText, display: coding[fx: "display"]?.fxText)
        return kept.code == nil && kept.display == nil ? nil : kept
    }

    private init(system: String?, code: String?, display: String?) {
        self.system = system
        self.code = code
        self.display = display
    }

    /// A Quantity of this unit.
    func quantity(_ value: Double) -> JSONValue {
        FHIRJSON.object([
            "value": .number(value),
            "unit": FHIRJSON.string(display ?? code),
            "system": code == nil ? nil : FHIRJSON.string(system),
            "code": FHIRJSON.string(code),
        ])
    }

    /// The Coding of the questionnaire-unit or questionnaire-unitOption extension.
    var coding: JSONValue {
        FHIRJSON.coding(system: code == nil ? nil : system, code: code, display: display)
    }

    /// True when the unit is text only: no UCUM code.
    var isTextOnly: Bool { code == nil }
}
