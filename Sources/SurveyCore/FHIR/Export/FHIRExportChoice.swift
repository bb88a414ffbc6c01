import Foundation
import JSON

/// One choice of a choice format, as the FHIR exports see it: its recorded value, its plain
/// text, the FHIR answerOption it came from (`fhir`: `system`, `code`, `display`, `valueType`;
/// docs/fhir.md) and the option's kept extensions (`extension`, such as `ordinalValue`).
struct FHIRExportChoice {
    let value: JSONValue
    let text: String?
    let fhir: JSONValue?
    /// A TextChoice with `other`: its typed text is recorded instead of its value.
    let isOther: Bool
    let isExclusive: Bool
    /// The option's extensions: the choice's `extension`, then any under `fhir.extension`.
    let keptExtensions: [JSONValue]
    let path: JSONPath
    /// The choice as the survey file has it.
    let source: JSONValue

    init(_ json: JSONValue, path: JSONPath, text: FHIRExportText) {
        source = json
        value = json[fx: "value"] ?? .null
        self.text = text.plain(json[fx: "text"]) ?? text.plain(json[fx: "imageAlt"])
        fhir = json[fx: "fhir"]
        isOther = json[fx: "other"] != nil
        isExclusive = json[fx: "exclusive"]?.fxBool == true
        keptExtensions = (json[fx: "extension"]?.fxArray ?? []) + (fhir?[fx: "extension"]?.fxArray ?? [])
        self.path = path
    }

    /// The choice as an answerOption value, or an answer value: `(type, value)` for `value<Type>`.
    ///
    /// With `fhir` the option it came from (a Coding unless `valueType` says `integer`, `date`,
    /// `time` or `string`); without, a string value is a Coding whose code is the value and
    /// whose display is the choice's text, and a whole number an integer.
    var fhirValue: (type: String, value: JSONValue) {
        if let fhir {
            let valueType = fhir[fx: "valueType"]?.fxString ?? "coding"
            switch valueType {
            case "integer":
                if let number = value.fxInteger ?? value.fxString.flatMap(Int.init) { return ("Integer", FHIRJSON.integer(number)) }
            case "date":
                if let date = value.fxText { return ("Date", .string(date)) }
            case "time":
                if let time = value.fxText { return ("Time", .string(FHIRExportKind.fhirTime(time))) }
            case "string":
                if let string = value.fxCodeText { return ("String", .string(string)) }
            default:
                break
            }
            return ("Coding", FHIRJSON.coding(system: fhir[fx: "system"]?.fxText,
                                              code: fhir[fx: "code"]?.fxCodeText ?? value.fxCodeText,
                                              display: fhir[fx: "display"]?.fxText ?? text))
        }
        if let number = value.fxInteger { return ("Integer", FHIRJSON.integer(number)) }
        return ("Coding", FHIRJSON.coding(system: nil, code: value.fxCodeText, display: text))
    }

    /// The choices of an answer format, with their paths; pickers' choices are not choices of the item.
    static func choices(of format: JSONValue, at path: JSONPath, text: FHIRExportText) -> [FHIRExportChoice] {
        guard let list = format[fx: "choices"]?.fxArray else { return [] }
        return list.enumerated().map { FHIRExportChoice($0.element, path: path / "choices" / $0.offset, text: text) }
    }
}
